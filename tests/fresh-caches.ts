import { clearTimedCaches } from '#domain/shared/timed-cache.ts';

// The database files share one module graph per worker (isolate: false, issue 36), so each
// starts as a new process would: the per-process caches (sites, product pages, lists) hold
// nothing from the file before, whose database was another.
clearTimedCaches();
