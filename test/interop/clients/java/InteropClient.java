import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.xml.soap.SOAPConstants;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.WebEndpoint;
import javax.xml.ws.WebServiceClient;
import javax.xml.ws.soap.SOAPBinding;

/**
 * Calls every operation of every SOAP port of the wsimport-generated clients found under a
 * directory of compiled classes, with the JAX-WS runtime, over SOAP 1.1 and SOAP 1.2.
 *
 * Usage: java -cp JAXWS_RUNTIME:CLASSES_DIRECTORY InteropClient CLASSES_DIRECTORY
 * Prints one JSON line per call: endpoint, operation, version, ok, and result or error.
 * Services, ports and operations are found by reflection over the generated code, never listed
 * here, so an operation missing from a WSDL shows up as a missing line in the test.
 */
public final class InteropClient {
    // Sample values by Java parameter type; the service only needs well-typed arguments.
    private static final Map<Class<?>, Object> SAMPLE_BY_TYPE = Map.of(String.class, "1", int.class, 1);

    public static void main(String[] arguments) throws Exception {
        for (Class<?> serviceClass : generatedServices(Paths.get(arguments[0]))) {
            Object service = serviceClass.getConstructor().newInstance();
            for (Method portGetter : serviceClass.getMethods()) {
                if (portGetter.isAnnotationPresent(WebEndpoint.class) && portGetter.getParameterCount() == 0) {
                    callEveryOperation(portGetter.getReturnType(), portGetter.invoke(service));
                }
            }
        }
    }

    /** The classes wsimport generated for each wsdl:service: they carry @WebServiceClient. */
    private static List<Class<?>> generatedServices(Path classes) throws Exception {
        List<Class<?>> services = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(path -> path.toString().endsWith(".class"))::iterator) {
                String relative = classes.relativize(file).toString();
                String name = relative.substring(0, relative.length() - ".class".length())
                        .replace(File.separatorChar, '.');
                Class<?> candidate = Class.forName(name, false, InteropClient.class.getClassLoader());
                if (candidate.isAnnotationPresent(WebServiceClient.class)) services.add(candidate);
            }
        }
        return services;
    }

    private static void callEveryOperation(Class<?> portInterface, Object port) throws IllegalAccessException {
        Object address = ((BindingProvider) port).getRequestContext().get(BindingProvider.ENDPOINT_ADDRESS_PROPERTY);
        // JAX-WS builds the HTTP GET and POST ports too, as SOAP 1.1 ports without an address (they
        // have no soap:address); they cannot be called. A SOAP port that lost its address is caught
        // by the test, which counts the operations called.
        if (address == null || address.toString().isEmpty()) return;
        String endpoint = URI.create(address.toString()).getPath();
        authenticate((BindingProvider) port);
        String version = soapVersion((SOAPBinding) ((BindingProvider) port).getBinding());
        for (Method operation : portInterface.getMethods()) {
            WebMethod webMethod = operation.getAnnotation(WebMethod.class);
            if (webMethod == null) continue;
            String report = "{\"endpoint\":" + JsonText.string(endpoint)
                    + ",\"operation\":" + JsonText.string(webMethod.operationName())
                    + ",\"version\":" + JsonText.string(version);
            System.out.println(report + call(port, operation) + "}");
        }
    }

    /** With SERVICE_USER and SERVICE_SECRET set, the port sends them with every call (HTTP Basic). */
    private static void authenticate(BindingProvider port) {
        String user = System.getenv("SERVICE_USER");
        if (user == null || user.isEmpty()) return;
        port.getRequestContext().put(BindingProvider.USERNAME_PROPERTY, user);
        port.getRequestContext().put(BindingProvider.PASSWORD_PROPERTY, System.getenv("SERVICE_SECRET"));
    }

    /** Read from the binding's own message factory, so the version is the one the runtime will send. */
    private static String soapVersion(SOAPBinding binding) {
        try {
            String envelope = binding.getMessageFactory().createMessage().getSOAPPart().getEnvelope().getNamespaceURI();
            return SOAPConstants.URI_NS_SOAP_1_2_ENVELOPE.equals(envelope) ? "1.2" : "1.1";
        } catch (Exception error) {
            throw new IllegalStateException("cannot tell the SOAP version of a port", error);
        }
    }

    /**
     * The wire name of a parameter, from wsimport's @WebParam; a parameter whose rules need a particular form gets
     * SAMPLE_<name>.
     */
    private static String parameterName(Method operation, int index) {
        for (java.lang.annotation.Annotation annotation : operation.getParameterAnnotations()[index]) {
            if (annotation instanceof WebParam) return ((WebParam) annotation).name();
        }
        return "";
    }

    /** Calls one operation; a fault or transport error is reported, not thrown, so every call runs. */
    private static String call(Object port, Method operation) throws IllegalAccessException {
        Object[] arguments = new Object[operation.getParameterCount()];
        for (int index = 0; index < arguments.length; index++) {
            Class<?> type = operation.getParameterTypes()[index];
            if (!SAMPLE_BY_TYPE.containsKey(type)) {
                return ",\"ok\":false,\"error\":"
                        + JsonText.string("no sample value for parameter type " + type.getName());
            }
            String override = type == String.class ? System.getenv("SAMPLE_" + parameterName(operation, index)) : null;
            arguments[index] = override != null ? override : SAMPLE_BY_TYPE.get(type);
        }
        try {
            Object result = operation.invoke(port, arguments);
            return ",\"ok\":true,\"result\":" + (result == null ? "null" : JsonText.string(String.valueOf(result)));
        } catch (InvocationTargetException error) {
            Throwable cause = error.getCause();
            return ",\"ok\":false,\"error\":" + JsonText.string(cause.getClass().getName() + ": " + cause.getMessage());
        }
    }
}
