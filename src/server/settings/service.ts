import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import type { BusinessSettings, SettingsSource } from '../lib/business';
import { processLogo } from '../lib/images';
import type { SettingsInput, SettingsView } from '#shared/schemas/settings';
import { paths } from '#shared/paths';
import { todayIn } from '#shared/dates';
import { BUSINESS_TIME_ZONE, DEFAULT_TAX_RATE_BASIS_POINTS } from '#shared/constants';
import { defaultBusiness } from '#shared/business';
import {
  databaseKnowsZone,
  readLogo,
  readSettings,
  seedSettings,
  writeLogo,
  writeSettings,
  type SettingsRow,
} from './repository';
import { badRequest } from '../lib/http-errors';
import { parseQuietHours } from '../texts';

/**
 * Another process (a second server on the same PostgreSQL) sees a change within this long; this
 * process sees its own changes at once. The embedded database has one process, and its cache never
 * goes stale (see `SettingsStore`).
 */
export const SETTINGS_CACHE_MS = 5_000;

const versionOf = (updatedAt: Date) => updatedAt.getTime().toString(36);

function toBusiness(row: SettingsRow): BusinessSettings {
  return {
    name: row.businessName,
    email: row.businessEmail,
    phone: row.businessPhone,
    address: row.businessAddress,
    licenseNumber: row.licenseNumber,
    serviceAreaHeadline: row.serviceAreaHeadline,
    serviceArea: row.serviceArea,
    taxRateBasisPoints: row.taxRateBasisPoints,
    quoteValidityDays: row.quoteValidityDays,
    quoteReminderDays: row.quoteReminderDays,
    ownerEmail: row.ownerEmail,
    timeZone: row.timeZone,
    crewSeesPrices: row.crewSeesPrices,
    crewLeadsSeePrices: row.crewLeadsSeePrices,
    webhooksAllowPrivate: row.webhooksAllowPrivate,
    requireTwoStep: row.requireTwoStep,
    backupsToKeep: row.backupsToKeep,
    arrivalWindowMinutes: row.arrivalWindowMinutes,
    materialsTaxable: row.materialsTaxable,
    laborTaxable: row.laborTaxable,
    invoiceReminderDays: row.invoiceReminderDays,
    howClientsPay: {
      checkPayee: row.payCheckPayee,
      checkAddress: row.payCheckAddress,
      bankTransfer: row.payTransfer,
      cardByPhone: row.payCardByPhone,
      cardPhone: row.payCardPhone,
    },
    logoVersion: row.hasLogo ? versionOf(row.updatedAt) : null,
  };
}

export function toSettingsView(business: BusinessSettings, updatedAt: Date): SettingsView {
  return {
    businessName: business.name,
    businessEmail: business.email,
    businessPhone: business.phone,
    businessAddress: business.address,
    licenseNumber: business.licenseNumber,
    serviceAreaHeadline: business.serviceAreaHeadline,
    serviceArea: business.serviceArea,
    taxRatePercent: business.taxRateBasisPoints / 100,
    quoteValidityDays: business.quoteValidityDays,
    quoteReminderDays: business.quoteReminderDays,
    ownerEmail: business.ownerEmail,
    timeZone: business.timeZone,
    invoiceReminderDays: business.invoiceReminderDays,
    crewSeesPrices: business.crewSeesPrices,
    crewLeadsSeePrices: business.crewLeadsSeePrices,
    webhooksAllowPrivate: business.webhooksAllowPrivate,
    requireTwoStep: business.requireTwoStep,
    backupsToKeep: business.backupsToKeep,
    arrivalWindowMinutes: business.arrivalWindowMinutes,
    materialsTaxable: business.materialsTaxable,
    laborTaxable: business.laborTaxable,
    howClientsPay: business.howClientsPay,
    logoUrl: business.logoVersion ? paths.media.logo(business.logoVersion) : null,
    updatedAt: updatedAt.toISOString(),
  };
}

/** The first values, from the BUSINESS_* variables (and OWNER_EMAIL, QUOTE_LINK_DAYS). */
export function seedValues(config: Config) {
  return {
    businessName: config.BUSINESS_NAME,
    businessEmail: config.BUSINESS_EMAIL,
    businessPhone: config.BUSINESS_PHONE,
    businessAddress: '',
    serviceAreaHeadline: defaultBusiness.areaServed,
    serviceArea: [...defaultBusiness.places],
    taxRateBasisPoints: DEFAULT_TAX_RATE_BASIS_POINTS,
    quoteValidityDays: Math.min(365, config.QUOTE_LINK_DAYS),
    ownerEmail: config.OWNER_EMAIL,
    timeZone: BUSINESS_TIME_ZONE,
  };
}

/**
 * The settings, read through a cache: every page, e-mail and PDF asks for them, and a change made
 * here is seen by the next one (the cache holds the row the change's transaction read back: it is
 * never empty once loaded).
 *
 * Code inside a transaction asks for them too (a client's move checks the business's rules and time
 * zone with the visit locked). The embedded database runs one transaction at a time, so a read on the
 * database there would wait for the transaction it was made in: forever (db/client.ts). It has one
 * process, so nothing else can change the row: its cache is loaded at start (`load`) and kept, and
 * settings never read the database inside a transaction. On PostgreSQL such a read takes another
 * connection of the pool, and the cache lasts `SETTINGS_CACHE_MS` for the other processes' changes.
 */
export class SettingsStore implements SettingsSource {
  private cached: { at: number; row: SettingsRow; business: BusinessSettings } | undefined;
  private logoCache: { version: string; png: Buffer | undefined } | undefined;
  private readonly keepsFor: number;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    /** Whether this process is the only one that writes the database (the embedded one). */
    onlyWriter: boolean,
  ) {
    this.keepsFor = onlyWriter ? Infinity : SETTINGS_CACHE_MS;
  }

  /** Writes the first values on the first start; later starts leave what the owner set. */
  async seed(): Promise<void> {
    await seedSettings(this.db, seedValues(this.config));
  }

  /** Reads the settings into the cache (at start, before any request or job asks). */
  async load() {
    if (this.cached && Date.now() - this.cached.at < this.keepsFor) return this.cached;
    let row = await readSettings(this.db);
    if (!row) {
      await this.seed();
      row = (await readSettings(this.db))!;
    }
    return this.remember(row);
  }

  private remember(row: SettingsRow) {
    this.cached = {
      at: Date.now(),
      row,
      business: { ...toBusiness(row), textQuietHours: parseQuietHours(this.config.TEXTS_QUIET_HOURS) },
    };
    return this.cached;
  }

  /** Writes a change and keeps the row as it was committed: the cache is never empty meanwhile. */
  private async change(write: (tx: Tx) => Promise<void>): Promise<SettingsView> {
    const row = await this.db.transaction(async (tx) => {
      await write(tx);
      return (await readSettings(tx))!;
    });
    this.remember(row);
    return this.view();
  }

  async current(): Promise<BusinessSettings> {
    return (await this.load()).business;
  }

  /** Today's date (YYYY-MM-DD) where the business is: the Settings' time zone, the one "today" there is. */
  async today(): Promise<string> {
    return todayIn((await this.load()).business.timeZone);
  }

  async view(): Promise<SettingsView> {
    const { business, row } = await this.load();
    return toSettingsView(business, row.updatedAt);
  }

  /**
   * `ownTwoStep` says whether the admin saving has two-step sign-in on: requiring it of Owner and
   * Office is refused until they have, so the requirement never locks its author out.
   */
  async update(input: SettingsInput, ownTwoStep: () => Promise<boolean>): Promise<SettingsView> {
    if (input.requireTwoStep && !(await this.current()).requireTwoStep && !(await ownTwoStep()))
      throw badRequest(
        'Turn on two-step sign-in for your own account first (Your account), then require it of others',
        'VALIDATION_FAILED',
      );
    // The schema asked the runtime (Intl); the database must know the zone too, or every export and
    // report that reads dates in it would fail.
    if (!(await databaseKnowsZone(this.db, input.timeZone)))
      throw badRequest('timeZone: Choose a known time zone', 'VALIDATION_FAILED');
    return this.change((tx) =>
      writeSettings(tx, {
        businessName: input.businessName,
        businessEmail: input.businessEmail,
        businessPhone: input.businessPhone,
        businessAddress: input.businessAddress,
        licenseNumber: input.licenseNumber,
        serviceAreaHeadline: input.serviceAreaHeadline,
        serviceArea: [...new Set(input.serviceArea)],
        taxRateBasisPoints: Math.round(input.taxRatePercent * 100),
        quoteValidityDays: input.quoteValidityDays,
        quoteReminderDays: [...input.quoteReminderDays].sort((a, b) => a - b),
        ownerEmail: input.ownerEmail,
        timeZone: input.timeZone,
        invoiceReminderDays: [...input.invoiceReminderDays].sort((a, b) => a - b),
        crewSeesPrices: input.crewSeesPrices,
        crewLeadsSeePrices: input.crewLeadsSeePrices,
        webhooksAllowPrivate: input.webhooksAllowPrivate,
        requireTwoStep: input.requireTwoStep,
        backupsToKeep: input.backupsToKeep,
        arrivalWindowMinutes: input.arrivalWindowMinutes,
        materialsTaxable: input.materialsTaxable,
        laborTaxable: input.laborTaxable,
        payCheckPayee: input.howClientsPay.checkPayee,
        payCheckAddress: input.howClientsPay.checkAddress,
        payTransfer: input.howClientsPay.bankTransfer,
        payCardByPhone: input.howClientsPay.cardByPhone,
        payCardPhone: input.howClientsPay.cardPhone,
      }),
    );
  }

  async setLogo(dataUrl: string): Promise<SettingsView> {
    const { png } = await processLogo(dataUrl);
    return this.change((tx) => writeLogo(tx, png));
  }

  async removeLogo(): Promise<SettingsView> {
    return this.change((tx) => writeLogo(tx, null));
  }

  async logo(): Promise<Buffer | undefined> {
    const { business } = await this.load();
    if (!business.logoVersion) return undefined;
    if (this.logoCache?.version !== business.logoVersion) {
      const stored = await readLogo(this.db);
      // Bytes and version read together, so a cached logo always matches its version.
      this.logoCache = stored && { version: versionOf(stored.updatedAt), png: stored.png };
    }
    return this.logoCache?.png;
  }
}
