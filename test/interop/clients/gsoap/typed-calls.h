// The typed calls of test/interop/support/typed-client-suite.ts through gSOAP proxies: a student
// and their marks, with one JSON line per call. Templates over the proxy classes, because each
// build's generated main (test/interop/gsoap-typed-client-source.ts) instantiates them with the
// GetStudentsInformation and GetStudnetsMarks2 proxies of its SOAP version. The request and result
// classes are the ones wsdl2h names after the tempuri.org namespace of the typed WSDLs.
#ifndef TYPED_CALLS_H
#define TYPED_CALLS_H

#include <cstdio>
#include <string>
#include <vector>

#include "json-string.h"
#include "stdsoap2.h"

// An optional (minOccurs="0") or nillable string element is a pointer, null when absent or nil.
inline std::string jsonOptional(const std::string *text) { return text == nullptr ? "null" : jsonString(*text); }

inline std::string jsonNumber(double number) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", number);
  return text;
}

inline std::string studentFields(const tempuri__StudentInfo *student) {
  if (student == nullptr) return "null";
  return "{\"StudentId\":" + std::to_string(student->StudentId) + ",\"NameAr\":" + jsonOptional(student->NameAr) +
         ",\"NameEn\":" + jsonOptional(student->NameEn) + ",\"ClassNameAr\":" + jsonOptional(student->ClassNameAr) +
         ",\"BirthDate\":" + jsonOptional(student->BirthDate) + "}";
}

inline std::string marksSummary(const tempuri__ArrayOfMark *marks) {
  const std::vector<tempuri__Mark *> none;
  const std::vector<tempuri__Mark *> &list = marks == nullptr ? none : marks->Mark;
  std::string first = "null";
  if (!list.empty()) {
    first = "{\"AssessmentNameAr\":" + jsonOptional(list[0]->AssessmentNameAr) +
            ",\"Score\":" + jsonNumber(list[0]->Score) +
            ",\"MaxScore\":" + jsonNumber(list[0]->MaxScore) + "}";
  }
  return "{\"count\":" + std::to_string(list.size()) + ",\"first\":" + first + "}";
}

// Prints the line of one finished call. The version is the one gSOAP used for the exchange
// (soapcpp2 -1 or -2 fixed it in the proxy), and a fault or transport error is reported, not
// fatal, so that every call runs.
template <typename Proxy>
void report(Proxy &proxy, const char *operation, const std::vector<std::string> &arguments, int status,
            const std::string &result) {
  std::string line = "{\"version\":" + jsonString(proxy.soap->version == 2 ? "1.2" : "1.1") +
                     ",\"operation\":" + jsonString(operation) + ",\"arguments\":[";
  for (std::size_t index = 0; index < arguments.size(); index++)
    line += (index == 0 ? "" : ",") + jsonString(arguments[index]);
  if (status == SOAP_OK) {
    line += "],\"ok\":true,\"result\":" + result;
  } else {
    char fault[1024];
    proxy.soap_sprint_fault(fault, sizeof fault);
    line += "],\"ok\":false,\"error\":" + jsonString(fault);
  }
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
}

template <typename Proxy>
void reportStudentInfo(Proxy &proxy, std::string studentId) {
  _tempuri__GetStudentInfoById request;
  request.StudentId = &studentId;
  _tempuri__GetStudentInfoByIdResponse response;
  int status = proxy.GetStudentInfoById(&request, response);
  report(proxy, "GetStudentInfoById", {studentId}, status,
         status == SOAP_OK ? studentFields(response.GetStudentInfoByIdResult) : "");
}

template <typename Proxy>
void reportMarks(Proxy &proxy, std::string studentId, std::string subjectId) {
  _tempuri__GetStudentsMarks2 request;
  request.StudnetID = &studentId;
  request.SubjectID = &subjectId;
  _tempuri__GetStudentsMarks2Response response;
  int status = proxy.GetStudentsMarks2(&request, response);
  report(proxy, "GetStudentsMarks2", {studentId, subjectId}, status,
         status == SOAP_OK ? marksSummary(response.GetStudentsMarks2Result) : "");
}

// Usage: PROGRAM STUDENT_ID SUBJECT_ID UNKNOWN_ID. The proxies read and write strings as UTF-8
// only in SOAP_C_UTFSTRING mode; without it gSOAP keeps one byte of each character beyond
// Latin-1, so that أ (U+0623) arrives as '#'.
template <typename InformationProxy, typename MarksProxy>
int callTyped(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s STUDENT_ID SUBJECT_ID UNKNOWN_ID\n", argv[0]);
    return 2;
  }
  const std::string studentId = argv[1], subjectId = argv[2], unknownId = argv[3];
  InformationProxy information(SOAP_C_UTFSTRING);
  MarksProxy marks(SOAP_C_UTFSTRING);
  reportStudentInfo(information, studentId);
  reportStudentInfo(information, unknownId);
  reportMarks(marks, studentId, subjectId);
  reportMarks(marks, studentId, unknownId);
  return 0;
}

#endif
