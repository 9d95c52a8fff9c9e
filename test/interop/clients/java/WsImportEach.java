import java.net.URI;
import java.util.Locale;

/**
 * Runs wsimport once per WSDL URL with the options of `wsimport -extension -keep -p PACKAGE URL`,
 * through wsimport's own entry point, all in one JVM: one wsimport process per WSDL spends about
 * 1.5 s starting its JVM, four times as long as this over the 16 endpoints on two cores.
 *
 * Usage: java -cp jaxws-tools.jar WsImportEach.java SOURCE_DIRECTORY WSDL_URL...
 * Each WSDL gets its own package, named after its endpoint (.../BookPdf.asmx?WSDL gives
 * generated.bookpdf): all of them share one target namespace, so in one package their
 * ObjectFactory and package-info classes would overwrite each other. -extension is what makes
 * wsimport generate the SOAP 1.2 ports; the classes are compiled later, in one javac call.
 */
public final class WsImportEach {
    public static void main(String[] arguments) throws Throwable {
        String sources = arguments[0];
        for (int index = 1; index < arguments.length; index++) {
            String wsdlUrl = arguments[index];
            String[] options = {
                "-extension", "-keep", "-Xnocompile", "-quiet", "-p", packageOf(wsdlUrl),
                "-s", sources, "-d", sources, wsdlUrl
            };
            int status = com.sun.tools.ws.WsImport.doMain(options);
            if (status != 0) {
                System.err.println("wsimport failed with status " + status + " on " + wsdlUrl);
                System.exit(status);
            }
        }
    }

    private static String packageOf(String wsdlUrl) {
        String file = URI.create(wsdlUrl).getPath().replaceFirst("^.*/", "").replaceFirst("\\.asmx$", "");
        return "generated." + file.toLowerCase(Locale.ROOT);
    }
}
