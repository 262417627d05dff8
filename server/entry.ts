// The server build's entry: our app with the React Router build bundled beside it.
import * as build from 'virtual:react-router/server-build';
import { type AppOptions, createApp } from './app.ts';

export function startApp(options: Omit<AppOptions, 'build'> = {}) {
  return createApp({ ...options, build: build as unknown as AppOptions['build'] });
}
