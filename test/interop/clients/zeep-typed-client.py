"""Reads typed results with zeep: a student and their marks, over SOAP 1.1 and SOAP 1.2.

Usage: zeep-typed-client.py BASE_URL STUDENT_ID SUBJECT_ID UNKNOWN_ID
Prints one JSON line per call, in UTF-8: the fields zeep decoded (the contract is in
test/interop/support/typed-client-suite.ts).
"""
import json
import sys

import zeep

# ASMX names a service's SOAP 1.1 port after the service plus "Soap", its SOAP 1.2 port plus "Soap12".
PORT_SUFFIX_BY_VERSION = {"1.1": "Soap", "1.2": "Soap12"}


def student_fields(student):
    if student is None:
        return None
    return {
        "StudentId": student.StudentId,
        "NameAr": student.NameAr,
        "NameEn": student.NameEn,
        "ClassNameAr": student.ClassNameAr,
        "BirthDate": student.BirthDate.isoformat(),
    }


def mark_fields(mark):
    return {"AssessmentNameAr": mark.AssessmentNameAr, "Score": mark.Score, "MaxScore": mark.MaxScore}


def marks_summary(marks):
    # zeep unwraps an ArrayOfMark into its list of Mark, and an empty one into None.
    marks = marks or []
    return {"count": len(marks), "first": mark_fields(marks[0]) if marks else None}


def report(version, operation, arguments, read):
    """Prints the line of one call; a fault or transport error is reported, not raised, so every call runs."""
    line = {"version": version, "operation": operation, "arguments": arguments}
    try:
        line.update(ok=True, result=read())
    except Exception as error:  # the report names the failure; the test decides
        line.update(ok=False, error=f"{type(error).__name__}: {error}")
    print(json.dumps(line, ensure_ascii=False), flush=True)


def main(base_url, student_id, subject_id, unknown_id):
    # Whatever the locale says, the lines are UTF-8: the test compares the Arabic names exactly.
    sys.stdout.reconfigure(encoding="utf-8")
    information = zeep.Client(f"{base_url}/GetStudentsInformation.asmx?WSDL")
    marks = zeep.Client(f"{base_url}/GetStudnetsMarks2.asmx?WSDL")
    for version, suffix in PORT_SUFFIX_BY_VERSION.items():
        students = information.bind("GetStudentsInformation", f"GetStudentsInformation{suffix}")
        student_marks = marks.bind("GetStudnetsMarks2", f"GetStudnetsMarks2{suffix}")
        for student in (student_id, unknown_id):
            report(
                version,
                "GetStudentInfoById",
                [student],
                lambda: student_fields(students.GetStudentInfoById(StudentId=student)),
            )
        for subject in (subject_id, unknown_id):
            report(
                version,
                "GetStudentsMarks2",
                [student_id, subject],
                lambda: marks_summary(student_marks.GetStudentsMarks2(StudnetID=student_id, SubjectID=subject)),
            )


if __name__ == "__main__":
    main(*sys.argv[1:])
