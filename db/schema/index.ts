export * from './access.ts';
export * from './accounts.ts';
export * from './catalog.ts';
export * from './commerce.ts';
export * from './courses.ts';
export * from './events.ts';
export * from './shelf.ts';
export * from './sites.ts';
