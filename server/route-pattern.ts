import type { ServerInstrumentation } from 'react-router';

// Which page route answered a request, for the metrics' `route` label (issue 40): the pattern
// React Router matched ('/product/:slug'), never the URL, so the label has as many values as
// there are routes. React Router hands each loader and action the pattern of the whole match;
// this instrumentation (exported by web/entry.server.tsx) writes it where the server reads it
// back once the response is made (WebContext.matchedRoute).

type Holder = { matchedRoute?: { pattern: string | null } };

function note(info: { pattern: string; context: unknown }) {
  const holder = (info.context as Holder | undefined)?.matchedRoute;
  if (holder) holder.pattern = info.pattern;
}

export const routePatternInstrumentation: ServerInstrumentation = {
  route(route) {
    route.instrument({
      async loader(callLoader, info) {
        note(info);
        await callLoader();
      },
      async action(callAction, info) {
        note(info);
        await callAction();
      },
    });
  },
};
