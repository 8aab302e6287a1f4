/**
 * A clients file shaped like Jobber's client export (Clients → Export: every column it writes, every
 * field quoted, CRLF lines). Row numbers are the spreadsheet's: the header is row 1.
 * - row 2: Main phone empty, Mobile and Work given, a billing address apart from the property;
 * - row 3: a company with Main, Work and Fax numbers and no Mobile;
 * - row 4: no e-mail (a phoned-in client): matched by phone;
 * - row 5: a formula in the Display Name: that row is refused, the rest imported;
 * - row 6: neither e-mail nor phone: refused;
 * - row 7: row 2's client again (e-mail in other case) with a second property: merged;
 * - row 8: only a billing address: it is their property too.
 */
export const JOBBER_HEADERS = [
  'J-ID',
  'Display Name',
  'Title',
  'First Name',
  'Last Name',
  'Company Name',
  'Main Phone #s',
  'Mobile Phone #s',
  'Work Phone #s',
  'Home Phone #s',
  'Fax Phone #s',
  'Other Phone #s',
  'E-mails',
  'Tags',
  'Billing Street 1',
  'Billing Street 2',
  'Billing City',
  'Billing State',
  'Billing Zip code',
  'Billing Country',
  'Service Property Name',
  'Service Street 1',
  'Service Street 2',
  'Service City',
  'Service State',
  'Service Zip code',
  'Service Country',
  'Lead Source',
  'Created Date',
  'Archived',
] as const;

type Row = Partial<Record<(typeof JOBBER_HEADERS)[number], string>>;

/** The export's rows for clients whose e-mails and phones carry `tag` (unique per test). */
export function jobberRows(tag: string): Row[] {
  const usa = 'United States';
  return [
    {
      'J-ID': '101',
      'Display Name': `Ann ${tag} Lee`,
      Title: 'Ms.',
      'First Name': 'Ann',
      'Last Name': `${tag} Lee`,
      'Mobile Phone #s': `(916) 555-${tag}1`,
      'Work Phone #s': `916-555-${tag}2`,
      'E-mails': `ann.${tag}@home.test`,
      Tags: 'Landlord, VIP',
      'Billing Street 1': 'PO Box 44',
      'Billing City': 'Sacramento',
      'Billing State': 'CA',
      'Billing Zip code': '95812',
      'Billing Country': usa,
      'Service Property Name': 'Rental',
      'Service Street 1': '1 Elm St',
      'Service Street 2': 'Unit B',
      'Service City': 'Davis',
      'Service State': 'CA',
      'Service Zip code': '95616',
      'Service Country': usa,
      'Lead Source': 'Google',
      'Created Date': '2024-03-05',
      Archived: 'false',
    },
    {
      'J-ID': '102',
      'Display Name': `Ng ${tag} Builders`,
      'First Name': 'Bo',
      'Last Name': 'Ng',
      'Company Name': `Ng ${tag} Builders`,
      'Main Phone #s': `916-555-${tag}3`,
      'Work Phone #s': `916-555-${tag}4`,
      'Fax Phone #s': `916-555-${tag}9`,
      'E-mails': `office.${tag}@ngbuilders.test, bo.${tag}@ngbuilders.test`,
      'Billing Street 1': '20 K St',
      'Billing City': 'Sacramento',
      'Billing State': 'CA',
      'Billing Zip code': '95814',
      'Billing Country': usa,
      'Service Street 1': '20 K St',
      'Service City': 'Sacramento',
      'Service State': 'CA',
      'Service Zip code': '95814',
      'Service Country': usa,
      'Created Date': '2023-11-20',
      Archived: 'false',
    },
    {
      'J-ID': '103',
      'Display Name': `Cy ${tag} Park`,
      'First Name': 'Cy',
      'Last Name': `${tag} Park`,
      'Mobile Phone #s': `+1 916 555 ${tag}5`,
      'Service Street 1': '3 Ash Ct',
      'Service City': 'Folsom',
      'Service State': 'CA',
      'Service Zip code': '95630',
      'Lead Source': 'Phone call',
      'Created Date': '2025-01-10',
      Archived: 'false',
    },
    {
      'J-ID': '104',
      'Display Name': '=HYPERLINK("http://evil.test","Click")',
      'First Name': 'Eve',
      'E-mails': `eve.${tag}@home.test`,
      Archived: 'false',
    },
    { 'J-ID': '105', 'Display Name': `Di ${tag} Nobody`, 'First Name': 'Di', Archived: 'true' },
    {
      'J-ID': '101',
      'Display Name': `Ann ${tag} Lee`,
      'E-mails': `ANN.${tag}@home.test`,
      'Service Street 1': '9 Pine Rd',
      'Service City': 'Davis',
      'Service State': 'CA',
      'Service Zip code': '95618',
      Archived: 'false',
    },
    {
      'J-ID': '106',
      'Display Name': `Flo ${tag} Ruiz`,
      'Home Phone #s': `916-555-${tag}6`,
      'E-mails': `flo.${tag}@home.test`,
      'Billing Street 1': '7 Oak Ave',
      'Billing City': 'Roseville',
      'Billing State': 'CA',
      'Billing Zip code': '95678',
      'Billing Country': usa,
      Archived: 'false',
    },
  ];
}

const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;

/** The file as Jobber writes it. `tag` is three digits (it ends the phone numbers). */
export function jobberExport(tag: string): string {
  const lines = [JOBBER_HEADERS.map(quoted).join(',')];
  for (const row of jobberRows(tag)) lines.push(JOBBER_HEADERS.map((h) => quoted(row[h] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
