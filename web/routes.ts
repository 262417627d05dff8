import { index, layout, type RouteConfig, route } from '@react-router/dev/routes';

const infoPages = ['support', 'help', 'privacy', 'terms', 'refund-policy', 'accessibility'];

export default [
  // One error boundary for every page, inside the root's shell (web/shell/shell-layout.tsx).
  layout('shell/shell-layout.tsx', [
    index('routes/home.tsx'),
    route('accounts/login', 'routes/login.tsx'),
    route('accounts/logout', 'routes/logout.tsx'),
    route('ajax/logout', 'routes/ajax-logout.ts'),
    route('ajax/book/free', 'routes/free-book.tsx'),
    route('cart', 'routes/cart.tsx'),
    route('checkout', 'routes/checkout.tsx'),
    route('checkout/complete/:orderId', 'routes/checkout-complete.tsx'),
    route('checkout/return/:orderId', 'routes/checkout-return.tsx'),
    route('account', 'routes/account.tsx'),
    route('account/eula', 'routes/eula.tsx'),
    route('account/language', 'routes/language.tsx'),
    route('library', 'routes/library.tsx'),
    route('shelf', 'routes/shelf.tsx'),
    route('redeem', 'routes/redeem.tsx'),
    route('shelf/course-section/:sectionId', 'routes/course-section.tsx'),
    route('site-map', 'routes/site-map.tsx'),
    route('manage/sections/:sectionId/opt-status.csv', 'routes/opt-status-csv.tsx'),
    route('manage/:tool', 'routes/manage-tool.tsx'),
    route('search', 'routes/search.tsx'),
    route('browse', 'routes/browse-redirect.ts', { id: 'browse-root' }),
    route('app/ecom/browse/:slug?', 'routes/browse-redirect.ts', { id: 'browse-legacy' }),
    route('browse/:slug', 'routes/browse.tsx'),
    route('covers/:file', 'routes/cover.ts'),
    route('sitemap.xml', 'routes/sitemap-index.ts'),
    route('sitemap/:kind/:file?', 'routes/sitemap-page.ts'),
    route('robots.txt', 'routes/robots.ts'),
    // Before the product route 'classroom/:id/:slug?', which would take it otherwise.
    route('classroom/:id/section/:sectionId', 'classroom/classroom.tsx'),
    ...['book', 'courseware', 'classroom', 'collection'].map((type) =>
      route(`${type}/:id/:slug?`, 'routes/product.tsx', { id: `product-${type}` }),
    ),
    route('product-detail/:id', 'routes/product.tsx', { id: 'product-detail' }),
    route('book/read/:id', 'routes/book-read.tsx', { id: 'book-read' }),
    route('cds_book_read/:id', 'routes/book-read.tsx', { id: 'cds-book-read' }),
    route('cds_courseware_provision/:id', 'routes/cds-courseware-provision.tsx'),
    route('file/read/:fileId', 'routes/file-read.ts', { id: 'file-read' }),
    route('file/read/:fileId/*', 'routes/file-read.ts', { id: 'file-read-resource' }),
    route('bookfile/:fileId/download', 'routes/bookfile-download.ts'),
    route('courses/analytics/:courseId', 'routes/course-analytics.tsx'),
    route('help/bookstore', 'routes/info-page.tsx', { id: 'info-help-bookstore' }),
    ...infoPages.map((page) => route(page, 'routes/info-page.tsx', { id: `info-${page}` })),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
