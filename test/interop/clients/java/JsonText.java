/** JSON string literals for the client programs' report lines; the JDK has no JSON writer. */
public final class JsonText {
    private JsonText() {
    }

    public static String string(String text) {
        StringBuilder literal = new StringBuilder("\"");
        for (char character : text.toCharArray()) {
            switch (character) {
                case '"': literal.append("\\\""); break;
                case '\\': literal.append("\\\\"); break;
                default:
                    if (character < 0x20) literal.append(String.format("\\u%04x", (int) character));
                    else literal.append(character);
            }
        }
        return literal.append('"').toString();
    }
}
