import {
  enrolmentOf,
  guardianChildIds,
  studentClassIds,
  studentGuardianIds,
  taughtGuardianIds,
  teacherClassIds,
  teacherSubjectIds,
} from '../store/queries/visibility';
import type { Session } from '../store/session';
import type { Scope } from './scope';

/**
 * What a caller's scope lets it see, asked record by record. A record out of scope is to be
 * answered exactly as an unknown one, so these say only yes or no. Each link is read once per call.
 *
 * - school: everything;
 * - teacher:ID: the classes the teacher teaches, their students, and in them the teacher's subjects;
 * - guardian:ID: the guardian's children, and the classes they are in;
 * - student:ID: the student, and the classes they are in;
 * - none: nothing.
 *
 * A caller pushes to a guardian's devices only where its scope reaches the guardian: a guardian
 * to their own, a student to their guardians', a teacher to the guardians of the students they teach.
 */
export class Visibility {
  private children: Promise<ReadonlySet<number>> | undefined;
  private taughtClasses: Promise<ReadonlySet<number>> | undefined;
  private enrolments: Map<number, Promise<ReadonlySet<number>>> | undefined;

  constructor(
    private readonly store: Session,
    readonly scope: Scope,
  ) {}

  get seesEverything(): boolean {
    return this.scope.kind === 'school';
  }

  async student(studentId: number): Promise<boolean> {
    switch (this.scope.kind) {
      case 'school':
        return true;
      case 'none':
        return false;
      case 'student':
        return this.scope.id === studentId;
      case 'guardian':
        return (await this.childrenOf(this.scope.id)).has(studentId);
      case 'teacher': {
        const taught = await this.classesTaughtBy(this.scope.id);
        return [...(await this.classesOf(studentId))].some((classId) => taught.has(classId));
      }
    }
  }

  /**
   * An enrolment record's student and class, when the caller may see it: when its student is
   * visible, and for a teacher when its class is one they teach. Undefined for one unknown or unseen.
   */
  async enrolment(recordId: number): Promise<{ studentId: number; classId: number } | undefined> {
    // The caller's own links are read before the record, found or not: a record out of scope then
    // costs what an unknown one does, so that the time of the answer does not tell them apart.
    if (this.scope.kind === 'teacher') await this.classesTaughtBy(this.scope.id);
    else if (this.scope.kind === 'guardian') await this.childrenOf(this.scope.id);
    const enrolment = await enrolmentOf(this.store, recordId);
    if (!enrolment || this.scope.kind === 'school') return enrolment;
    const seen =
      this.scope.kind === 'teacher'
        ? (await this.classesTaughtBy(this.scope.id)).has(enrolment.classId)
        : await this.student(enrolment.studentId);
    return seen ? enrolment : undefined;
  }

  async class(classId: number): Promise<boolean> {
    switch (this.scope.kind) {
      case 'school':
        return true;
      case 'none':
        return false;
      case 'teacher':
        return (await this.classesTaughtBy(this.scope.id)).has(classId);
      case 'student':
        return (await this.classesOf(this.scope.id)).has(classId);
      case 'guardian':
        for (const child of await this.childrenOf(this.scope.id))
          if ((await this.classesOf(child)).has(classId)) return true;
        return false;
    }
  }

  /**
   * The classes the caller sees, undefined for all of them: read whatever record is asked for, so
   * that one out of scope costs what an unknown one does.
   */
  async classes(): Promise<ReadonlySet<number> | undefined> {
    switch (this.scope.kind) {
      case 'school':
        return undefined;
      case 'none':
        return new Set();
      case 'teacher':
        return this.classesTaughtBy(this.scope.id);
      case 'student':
        return this.classesOf(this.scope.id);
      case 'guardian': {
        const classes = new Set<number>();
        for (const child of await this.childrenOf(this.scope.id))
          for (const classId of await this.classesOf(child)) classes.add(classId);
        return classes;
      }
    }
  }

  /** Whether the caller may send notifications about a class: the school, or a teacher of the class. */
  async mayNotifyClass(classId: number): Promise<boolean> {
    if (this.scope.kind === 'school') return true;
    return this.scope.kind === 'teacher' && (await this.classesTaughtBy(this.scope.id)).has(classId);
  }

  /** A student's marks in a subject: visible with the student, for a teacher only in a subject they teach them. */
  async studentSubject(studentId: number, subjectId: number): Promise<boolean> {
    if (!(await this.student(studentId))) return false;
    if (this.scope.kind !== 'teacher') return true;
    const taught = await this.classesTaughtBy(this.scope.id);
    for (const classId of await this.classesOf(studentId)) {
      if (taught.has(classId) && (await teacherSubjectIds(this.store, this.scope.id, classId)).includes(subjectId)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whose devices the caller may push to: the guardians it reaches, or undefined for everyone's.
   * Read whatever device is asked for (before it is looked up), so that a device out of reach
   * costs the same as an unknown one, which it is answered as.
   */
  async pushableGuardians(): Promise<ReadonlySet<number> | undefined> {
    switch (this.scope.kind) {
      case 'school':
        return undefined;
      case 'none':
        return new Set();
      case 'guardian':
        return new Set([this.scope.id]);
      case 'student':
        return new Set(await studentGuardianIds(this.store, this.scope.id));
      case 'teacher':
        return new Set(await taughtGuardianIds(this.store, this.scope.id));
    }
  }

  /** The teacher the caller is, when it is one: lists of a teacher's own are shown only to them. */
  get teacherId(): number | undefined {
    return this.scope.kind === 'teacher' ? this.scope.id : undefined;
  }

  /** The students whose entries of a class's lists (its attendance) the caller sees; undefined: all of them. */
  async studentsShownInClass(): Promise<ReadonlySet<number> | undefined> {
    if (this.scope.kind === 'guardian') return this.childrenOf(this.scope.id);
    if (this.scope.kind === 'student') return new Set([this.scope.id]);
    return this.scope.kind === 'none' ? new Set() : undefined;
  }

  /** The subjects of a class the caller sees marks and teachers of; undefined: all of them. */
  async subjectsShownInClass(classId: number): Promise<ReadonlySet<number> | undefined> {
    if (this.scope.kind !== 'teacher') return this.scope.kind === 'none' ? new Set() : undefined;
    return new Set(await teacherSubjectIds(this.store, this.scope.id, classId));
  }

  private childrenOf(guardianId: number): Promise<ReadonlySet<number>> {
    this.children ??= guardianChildIds(this.store, guardianId).then((ids) => new Set(ids));
    return this.children;
  }

  private classesTaughtBy(teacherId: number): Promise<ReadonlySet<number>> {
    this.taughtClasses ??= teacherClassIds(this.store, teacherId).then((ids) => new Set(ids));
    return this.taughtClasses;
  }

  private classesOf(studentId: number): Promise<ReadonlySet<number>> {
    this.enrolments ??= new Map();
    let classes = this.enrolments.get(studentId);
    if (!classes) {
      classes = studentClassIds(this.store, studentId).then((ids) => new Set(ids));
      this.enrolments.set(studentId, classes);
    }
    return classes;
  }
}
