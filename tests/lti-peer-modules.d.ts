// The real-peer tests' LTI libraries ship no types (issue 14, tests/integration/lti-peers.test.ts).
declare module 'ltijs';
declare module 'ltijs-sequelize';
declare module 'ims-lti';
