import { createTheme, type CSSVariablesResolver, type MantineColorsTuple, type ModalProps } from '@mantine/core';

// Deep blue for trust; a burnt orange for calls to action. Filled shades keep 4.5:1 with white text.
const brand: MantineColorsTuple = [
  '#e8f1fa',
  '#cfdeee',
  '#a0bbdc',
  '#6d96ca',
  '#4477ba',
  '#2b63b0',
  '#1f58a8',
  '#174a94',
  '#123f83',
  '#0b3372',
];
const success: MantineColorsTuple = [
  '#ebfbee',
  '#d3f9d8',
  '#b2f2bb',
  '#8ce99a',
  '#69db7c',
  '#51cf66',
  '#2f9e44',
  '#237a35',
  '#1d6b2e',
  '#155724',
];
const accent: MantineColorsTuple = [
  '#fff1e6',
  '#fde0cd',
  '#f8bf9c',
  '#f39b66',
  '#ef7c39',
  '#ec691d',
  '#c2530f',
  '#ad4609',
  '#9a3d05',
  '#863200',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand, accent, success },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontWeight: '700',
  },
  defaultRadius: 'md',
  // Dialogs, menus and toasts appear and go without sliding or fading for a person whose device asks
  // for reduced motion (WCAG 2.3.3).
  respectReducedMotion: true,
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  // Plain objects rather than Modal.extend(): referring to Modal here would put the dialog code
  // (Modal, ScrollArea, FocusTrap, RemoveScroll) into every public page's first load.
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close the dialog' } } satisfies Partial<ModalProps> },
    // A dialog's title bar is not the page's banner: one <header> landmark per page.
    ModalHeader: { defaultProps: { component: 'div' } },
  },
});

/**
 * Mantine's default "dimmed" grey is 3.3:1 on white; this one reads at 7:1 (WCAG AA needs 4.5). Its
 * error red (red.6, 3.6:1) colours the text of a field in error: red.9 reads at 5.9:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#495057',
    '--mantine-color-placeholder': '#6b737b',
    '--mantine-color-error': '#c92a2a',
  },
  dark: {},
});
