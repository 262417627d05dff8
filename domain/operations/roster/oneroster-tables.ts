// IMS OneRoster 1.2 CSV binding (decision 035): the files this import reads, their columns and
// which of them the binding requires. A package whose file lacks a required column is refused
// as a whole; columns beyond these (the binding's metadata.* extensions) are ignored.

export const ROSTER_FILES = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'roles',
  'enrollments',
] as const;

export type RosterFile = (typeof ROSTER_FILES)[number];

type Columns = { required: readonly string[]; optional: readonly string[] };

const RECORD = ['sourcedId', 'status', 'dateLastModified'] as const;

export const ROSTER_COLUMNS: Record<RosterFile, Columns> = {
  orgs: {
    required: [...RECORD, 'name', 'type'],
    optional: ['identifier', 'parentSourcedId'],
  },
  academicSessions: {
    required: [...RECORD, 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
    optional: ['parentSourcedId'],
  },
  courses: {
    required: [...RECORD, 'title', 'orgSourcedId'],
    optional: ['schoolYearSourcedId', 'courseCode', 'grades', 'subjects', 'subjectCodes'],
  },
  classes: {
    required: [
      ...RECORD,
      'title',
      'courseSourcedId',
      'classType',
      'schoolSourcedId',
      'termSourcedIds',
    ],
    optional: ['grades', 'classCode', 'location', 'subjects', 'subjectCodes', 'periods'],
  },
  // 1.2: no role column; a user's roles are in roles.csv.
  users: {
    required: [...RECORD, 'enabledUser', 'username', 'givenName', 'familyName'],
    optional: [
      'userIds',
      'middleName',
      'identifier',
      'email',
      'sms',
      'phone',
      'agentSourcedIds',
      'grades',
      'password',
      'userMasterIdentifier',
      'resourceSourcedIds',
      'preferredGivenName',
      'preferredMiddleName',
      'preferredFamilyName',
      'primaryOrgSourcedId',
      'pronouns',
    ],
  },
  roles: {
    required: [...RECORD, 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
    optional: ['beginDate', 'endDate', 'userProfileSourcedId'],
  },
  enrollments: {
    required: [...RECORD, 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
    optional: ['primary', 'beginDate', 'endDate'],
  },
};

/**
 * Columns whose value a row must carry (the binding's "required" that may not be blank).
 * status and dateLastModified are required headers but blank in bulk (checked by mode).
 */
export const ROSTER_VALUES: Record<RosterFile, readonly string[]> = {
  orgs: ['sourcedId', 'name', 'type'],
  academicSessions: ['sourcedId', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
  courses: ['sourcedId', 'title', 'orgSourcedId'],
  classes: [
    'sourcedId',
    'title',
    'courseSourcedId',
    'classType',
    'schoolSourcedId',
    'termSourcedIds',
  ],
  users: ['sourcedId', 'enabledUser', 'username', 'givenName', 'familyName'],
  roles: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
  enrollments: ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
};

/** The 1.2 role vocabulary (roles.csv and enrollments.csv). */
export const ONEROSTER_ROLES = [
  'aide',
  'counselor',
  'districtAdministrator',
  'guardian',
  'parent',
  'principal',
  'proctor',
  'relative',
  'siteAdministrator',
  'student',
  'systemAdministrator',
  'teacher',
] as const;

export const SESSION_TYPES = ['gradingPeriod', 'semester', 'schoolYear', 'term'] as const;

/** The manifest's versions this import reads. */
export const MANIFEST_VERSION = '1.0';
export const ONEROSTER_VERSION = '1.2';
