import { index, type RouteConfig, route } from '@react-router/dev/routes';

const infoPages = ['support', 'help', 'privacy', 'terms', 'refund-policy', 'accessibility'];

export default [
  index('routes/home.tsx'),
  route('accounts/login', 'routes/login.tsx'),
  route('accounts/logout', 'routes/logout.tsx'),
  route('ajax/logout', 'routes/ajax-logout.ts'),
  route('ajax/book/free', 'routes/free-book.ts'),
  route('cart', 'routes/cart.tsx'),
  route('checkout', 'routes/checkout.tsx'),
  route('checkout/complete/:orderId', 'routes/checkout-complete.tsx'),
  route('account', 'routes/account.tsx'),
  route('account/eula', 'routes/eula.tsx'),
  route('account/language', 'routes/language.tsx'),
  route('library', 'routes/library.tsx'),
  route('shelf', 'routes/shelf.tsx'),
  route('shelf/course-section/:sectionId', 'routes/course-section.tsx'),
  route('site-map', 'routes/site-map.tsx'),
  route('manage/sections/:sectionId/opt-status.csv', 'routes/opt-status-csv.ts'),
  route('manage/:tool', 'routes/manage-tool.tsx'),
  route('search', 'routes/search.tsx'),
  route('browse', 'routes/browse-redirect.ts', { id: 'browse-root' }),
  route('app/ecom/browse/:slug?', 'routes/browse-redirect.ts', { id: 'browse-legacy' }),
  route('browse/:slug', 'routes/browse.tsx'),
  route('covers/:file', 'routes/cover.ts'),
  route('sitemap.xml', 'routes/sitemap-index.ts'),
  route('sitemap/:kind/:file?', 'routes/sitemap-page.ts'),
  route('robots.txt', 'routes/robots.ts'),
  ...['book', 'courseware', 'classroom', 'collection'].map((type) =>
    route(`${type}/:id/:slug?`, 'routes/product.tsx', { id: `product-${type}` }),
  ),
  route('product-detail/:id', 'routes/product.tsx', { id: 'product-detail' }),
  route('help/bookstore', 'routes/info-page.tsx', { id: 'info-help-bookstore' }),
  ...infoPages.map((page) => route(page, 'routes/info-page.tsx', { id: `info-${page}` })),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
