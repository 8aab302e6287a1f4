// The booking feature's public entry (issue 31, decision 046): the windows clients may pick, and a
// client moving or cancelling their own visit.
export { bookingRoutes } from './routes';
export { bookingRules } from './repository';
export { changeState } from './service';
export { bookEstimate } from './estimates';
