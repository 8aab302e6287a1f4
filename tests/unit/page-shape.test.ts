import { describe, expect, it } from 'vitest';
import { pageShape } from '../../src/server/site/critical-css';

const quote = (name: string, total: string, extra = '') =>
  `<main class="m_1 page"><h1 data-order="1">Your Quote</h1><p class="m_2" style="color: var(--mantine-color-dimmed)">For ${name}</p>` +
  `<a href="/quote/${name}?token=${name}x" aria-label="Open the quote of ${name}">${total}</a>${extra}</main>`;

describe("a client's own page's shape, by which its first paint's rules are picked once", () => {
  it('is the same for two clients whose pages differ only in their words, links and labels', () => {
    expect(pageShape(quote('Ana Garcia', '$1,200.00'))).toBe(pageShape(quote('Bo Li', '$80.50')));
  });

  it('differs with an element, a class, a variable or a value the stylesheets test', () => {
    const plain = pageShape(quote('Ana', '$1'));
    expect(pageShape(quote('Ana', '$1', '<section class="m_3">Deposit</section>'))).not.toBe(plain);
    expect(pageShape(quote('Ana', '$1', '<span style="width: var(--deposit-width)"></span>'))).not.toBe(plain);
    expect(pageShape(quote('Ana', '$1', '<button data-variant="filled">Pay</button>'))).not.toBe(
      pageShape(quote('Ana', '$1', '<button data-variant="light">Pay</button>')),
    );
  });
});
