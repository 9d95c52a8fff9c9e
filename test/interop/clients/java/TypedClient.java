import generated.getstudentsinformation.GetStudentsInformation;
import generated.getstudentsinformation.GetStudentsInformationSoap;
import generated.getstudentsinformation.StudentInfo;
import generated.getstudnetsmarks2.ArrayOfMark;
import generated.getstudnetsmarks2.GetStudnetsMarks2;
import generated.getstudnetsmarks2.GetStudnetsMarks2Soap;
import generated.getstudnetsmarks2.Mark;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads typed results through the wsimport-generated clients of GetStudentsInformation.asmx and
 * GetStudnetsMarks2.asmx, with the JAX-WS runtime: a student and their marks, over the Soap
 * (SOAP 1.1) and Soap12 (SOAP 1.2) port of each service.
 *
 * Usage: java -cp JAXWS_RUNTIME:CLASSES_DIRECTORY TypedClient STUDENT_ID SUBJECT_ID UNKNOWN_ID
 * Prints one JSON line per call, in UTF-8: the fields the generated classes decoded (the contract
 * is in test/interop/support/typed-client-suite.ts).
 */
public final class TypedClient {
    // Whatever the locale says, the lines are UTF-8: the test compares the Arabic names exactly.
    private static final PrintStream OUTPUT =
            new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    public static void main(String[] arguments) {
        GetStudentsInformation information = new GetStudentsInformation();
        GetStudnetsMarks2 marks = new GetStudnetsMarks2();
        callAll("1.1", information.getGetStudentsInformationSoap(), marks.getGetStudnetsMarks2Soap(), arguments);
        callAll("1.2", information.getGetStudentsInformationSoap12(), marks.getGetStudnetsMarks2Soap12(), arguments);
    }

    private static void callAll(
            String version, GetStudentsInformationSoap information, GetStudnetsMarks2Soap marks, String[] arguments) {
        String studentId = arguments[0];
        String subjectId = arguments[1];
        String unknownId = arguments[2];
        for (String student : List.of(studentId, unknownId)) {
            report(version, "GetStudentInfoById", List.of(student),
                    () -> studentFields(information.getStudentInfoById(student)));
        }
        for (String subject : List.of(subjectId, unknownId)) {
            report(version, "GetStudentsMarks2", List.of(studentId, subject),
                    () -> marksSummary(marks.getStudentsMarks2(studentId, subject)));
        }
    }

    private static String studentFields(StudentInfo student) {
        if (student == null) return "null";
        return "{\"StudentId\":" + student.getStudentId()
                + ",\"NameAr\":" + JsonText.string(student.getNameAr())
                + ",\"NameEn\":" + JsonText.string(student.getNameEn())
                + ",\"ClassNameAr\":" + JsonText.string(student.getClassNameAr())
                + ",\"BirthDate\":" + JsonText.string(student.getBirthDate().toXMLFormat()) + "}";
    }

    private static String marksSummary(ArrayOfMark marks) {
        // An empty ArrayOfMark has an empty list; a missing one would be null.
        List<Mark> list = marks == null ? List.of() : marks.getMark();
        String first = "null";
        if (!list.isEmpty()) {
            Mark mark = list.get(0);
            first = "{\"AssessmentNameAr\":" + JsonText.string(mark.getAssessmentNameAr())
                    + ",\"Score\":" + mark.getScore() + ",\"MaxScore\":" + mark.getMaxScore() + "}";
        }
        return "{\"count\":" + list.size() + ",\"first\":" + first + "}";
    }

    /** Prints the line of one call; a fault or transport error is reported, not thrown, so every call runs. */
    private static void report(String version, String operation, List<String> arguments, Supplier<String> read) {
        StringBuilder line = new StringBuilder("{\"version\":" + JsonText.string(version)
                + ",\"operation\":" + JsonText.string(operation) + ",\"arguments\":[");
        for (int index = 0; index < arguments.size(); index++) {
            line.append(index == 0 ? "" : ",").append(JsonText.string(arguments.get(index)));
        }
        try {
            line.append("],\"ok\":true,\"result\":").append(read.get());
        } catch (RuntimeException error) {
            line.append("],\"ok\":false,\"error\":")
                    .append(JsonText.string(error.getClass().getName() + ": " + error.getMessage()));
        }
        OUTPUT.println(line.append('}'));
    }
}
