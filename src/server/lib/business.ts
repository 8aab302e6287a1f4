import type { Config } from '../config';

export interface Business {
  name: string;
  email: string;
  phone: string;
}

/** The business as e-mails and PDFs name it. */
export function businessOf(config: Config): Business {
  return { name: config.BUSINESS_NAME, email: config.BUSINESS_EMAIL, phone: config.BUSINESS_PHONE };
}
