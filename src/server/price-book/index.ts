// The price book feature's public entry: its routes, and the materials list the crew and invoices read.
export { priceBookRoutes } from './routes';
export { materialPrice, materialPrices, type MaterialPrice } from './service';
