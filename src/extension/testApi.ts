import type { Ctx } from './ctx';
import { getContext, type ContextKey } from './contextKeys';

/**
 * What `activate()` returns when the environment variable ODIN_EXTENSION_TEST=1 is set
 * (the integration tests inside the real VS Code host); `undefined` otherwise. It gives
 * tests the context object so they can drive state a person would set through UI that
 * the extension host cannot type into (the password input box).
 */
export interface TestApi {
  ctx: Ctx;
  contextValue(key: ContextKey): unknown;
}

export function createTestApi(ctx: Ctx): TestApi {
  return { ctx, contextValue: (key) => getContext(key) };
}
