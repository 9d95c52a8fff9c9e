// Calls SendMarkNotes through the ASMX client proxies Mono's wsdl generated from the live typed
// WSDL (namespace Soap11, and Soap12 with -protocol:SOAP12). Its int result is declared
// minOccurs="1", so the proxies return it: this program does not compile where wsdl made it an out
// parameter with a SendMarkNotesResultSpecified flag.
//
// Usage: mono program.exe ASSESSMENT_ID CLASS_ID BASE_URL_SCHOOL
// Prints one JSON line per SOAP version: {"version":"1.1","result":0}
using System;

public static class MonoValueResultClient
{
    public static void Main(string[] arguments)
    {
        int result11 = new Soap11.NotificationNotes().SendMarkNotes(arguments[0], arguments[1], arguments[2]);
        Console.WriteLine("{\"version\":\"1.1\",\"result\":" + result11 + "}");
        int result12 = new Soap12.NotificationNotes().SendMarkNotes(arguments[0], arguments[1], arguments[2]);
        Console.WriteLine("{\"version\":\"1.2\",\"result\":" + result12 + "}");
    }
}
