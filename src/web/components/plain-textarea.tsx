import { InputBase, type InputBaseProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';

type Props = InputBaseProps & Omit<ComponentPropsWithoutRef<'textarea'>, keyof InputBaseProps | 'style'>;

/**
 * Mantine's Textarea without its autosize code (5 KB that Textarea always loads): the same element,
 * classes and look, for the public forms, whose JavaScript has a budget (decision 033). Staff screens
 * that grow a field as it is typed in keep Textarea with `autosize`.
 */
export function PlainTextarea(props: Props) {
  return <InputBase component="textarea" multiline __staticSelector="Textarea" {...props} />;
}
