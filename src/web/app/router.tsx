import { useEffect } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { paths, patterns } from '#shared/paths';
import { HomePage } from '../features/home/pages/home-page';
import { ErrorPage } from './error-page';
import { PublicLayout } from './layouts/public-layout';
import { ScrollToTop } from './scroll-to-top';

function Root() {
  // The app runs the page now: its buttons take taps (global.css holds them until then).
  useEffect(() => document.getElementById('root')?.setAttribute('data-ready', ''), []);
  return (
    <>
      <ScrollToTop />
      <Outlet />
    </>
  );
}

/**
 * Shown while the first page's lazy module loads on a full page load (nothing: it takes a moment, and
 * a page the server rendered is already on screen). Without one React Router warns on every such load.
 */
function FirstLoad() {
  return null;
}

/** Lazy route modules keep each area's code out of the others' first load. */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

/**
 * The 404 and 401 pages load with their route, like every other page: few visits need them, and the
 * home page's first load stays within its budget (decision 036).
 */
const notFound = page(() => import('../components/status-pages').then((m) => ({ default: m.NotFoundPage })));
const unauthorized = page(() => import('../components/status-pages').then((m) => ({ default: m.UnauthorizedPage })));

/** The app's routes: the browser's router (main.tsx) and the server's page renderer (render-page.tsx) share them. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <ErrorPage />,
    HydrateFallback: FirstLoad,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.home, element: <HomePage /> },
          { path: paths.getAQuote, lazy: page(() => import('../features/quote-requests/pages/get-a-quote-page')) },
          {
            path: paths.getAQuoteSuccess,
            lazy: page(() => import('../features/quote-requests/pages/quote-request-sent-page')),
          },
          { path: paths.contact, lazy: page(() => import('../features/contact/pages/contact-page')) },
          { path: paths.thankYou, lazy: page(() => import('../features/contact/pages/thank-you-page')) },
          { path: paths.login, lazy: page(() => import('../features/auth/pages/login-page')) },
          {
            path: paths.quoteRequestStatus,
            lazy: page(() => import('../features/quote-requests/pages/status-lookup-page')),
          },
          {
            path: patterns.quoteRequestStatusOf,
            lazy: page(() => import('../features/quote-requests/pages/status-page')),
          },
          { path: paths.quoteAccepted, lazy: page(() => import('../features/quotes/pages/quote-accepted-page')) },
          { path: paths.quoteDeclined, lazy: page(() => import('../features/quotes/pages/quote-declined-page')) },
          { path: patterns.clientQuote, lazy: page(() => import('../features/quotes/pages/client-quote-page')) },
          {
            path: patterns.clientInvoice,
            lazy: page(() => import('../features/invoices/pages/client-invoice-page')),
          },
          { path: patterns.clientPage, lazy: page(() => import('../features/clients/pages/client-own-page')) },
          {
            path: patterns.servicePlanOffer,
            lazy: page(() => import('../features/clients/pages/service-plan-offer-page')),
          },
          { path: paths.unauthorized, lazy: unauthorized },
          { path: '*', lazy: notFound },
        ],
      },
      {
        path: paths.admin.root,
        lazy: async () => ({ Component: (await import('./layouts/staff-layout')).AdminLayout }),
        children: [
          { index: true, lazy: page(() => import('../features/dashboard/pages/dashboard-page')) },
          {
            path: paths.admin.quoteRequests,
            lazy: page(() => import('../features/quote-requests/pages/admin-list-page')),
          },
          {
            path: paths.admin.newQuoteRequest,
            lazy: page(() => import('../features/quote-requests/pages/new-request-page')),
          },
          { path: paths.admin.clients, lazy: page(() => import('../features/clients/pages/clients-page')) },
          { path: patterns.admin.client, lazy: page(() => import('../features/clients/pages/client-page')) },
          {
            path: patterns.admin.quoteRequest,
            lazy: page(() => import('./pages/quote-request-page')),
          },
          {
            path: paths.admin.calendar,
            lazy: async () => ({
              Component: (await import('../features/visits/pages/calendar-page')).OfficeCalendarPage,
            }),
          },
          { path: paths.admin.jobs, lazy: page(() => import('../features/jobs/pages/jobs-page')) },
          { path: patterns.admin.job, lazy: page(() => import('./pages/job-page')) },
          { path: paths.admin.invoices, lazy: page(() => import('../features/invoices/pages/invoices-page')) },
          { path: paths.admin.reports, lazy: page(() => import('../features/reports/pages/reports-page')) },
          { path: patterns.admin.invoice, lazy: page(() => import('../features/invoices/pages/invoice-page')) },
          { path: paths.admin.priceBook, lazy: page(() => import('../features/price-book/pages/price-book-page')) },
          {
            // The Owner's pages (decision 042): Office is sent to the 401 page.
            lazy: async () => ({ Component: (await import('./layouts/staff-layout')).OwnerOnly }),
            children: [
              { path: paths.admin.users, lazy: page(() => import('../features/users/pages/users-page')) },
              { path: paths.admin.settings, lazy: page(() => import('../features/settings/pages/settings-page')) },
              { path: paths.admin.activity, lazy: page(() => import('../features/audit/pages/activity-page')) },
              { path: paths.admin.data, lazy: page(() => import('../features/your-data/pages/your-data-page')) },
              { path: paths.admin.system, lazy: page(() => import('../features/system/pages/system-page')) },
            ],
          },
          { path: paths.admin.account, lazy: page(() => import('../features/auth/pages/account-page')) },
          { path: '*', lazy: notFound },
        ],
      },
      {
        path: paths.employee.root,
        lazy: async () => ({ Component: (await import('./layouts/staff-layout')).EmployeeLayout }),
        children: [
          { index: true, lazy: page(() => import('./pages/employee-home-page')) },
          { path: paths.employee.jobs, lazy: page(() => import('../features/employee/pages/employee-jobs-page')) },
          { path: patterns.employee.job, lazy: page(() => import('./pages/crew-job-page')) },
          { path: paths.employee.schedule, lazy: page(() => import('../features/employee/pages/schedule-page')) },
          { path: paths.employee.account, lazy: page(() => import('../features/auth/pages/account-page')) },
          {
            path: paths.employee.calendar,
            lazy: async () => ({
              Component: (await import('../features/visits/pages/calendar-page')).CrewCalendarPage,
            }),
          },
          { path: '*', lazy: notFound },
        ],
      },
    ],
  },
];
