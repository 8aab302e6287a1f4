// The client's quote page (from the e-mailed link); the Quote Builder's Preview renders the same sheet.
export { ClientQuotePage as default } from '../components/client-quote-sheet';
