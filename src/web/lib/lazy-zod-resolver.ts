import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver whose zod schema (with zod and the resolver) is loaded on the first
 * validation rather than with the page: the public forms are taken over by the app without
 * evaluating them first. Validation and messages are the same as with `zodResolver(schema)`.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(
  load: () => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, unknown, Output> {
  let resolver: Promise<Resolver<Input, unknown, Output>> | undefined;
  return async (values, context, options) => {
    resolver ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema as never) as unknown as Resolver<Input, unknown, Output>,
    );
    return (await resolver)(values, context, options);
  };
}
