import { index, layout, type RouteConfig, route } from '@react-router/dev/routes';

const infoPages = ['support', 'help', 'privacy', 'terms', 'refund-policy', 'accessibility'];

export default [
  // One error boundary for every page, inside the root's shell (web/shell/shell-layout.tsx).
  layout('shell/shell-layout.tsx', [
    index('routes/home.tsx'),
    route('accounts/login', 'accounts/login.tsx'),
    route('accounts/logout', 'accounts/logout.tsx'),
    // Passkeys and the second factor (issue 20).
    route('accounts/login/verify', 'accounts/login-verify.tsx'),
    route('accounts/login/enrol', 'accounts/login-enrol.tsx'),
    route('accounts/passkey/options', 'accounts/passkey-options.ts'),
    route('account/security', 'accounts/security.tsx'),
    // Issue 20: sign up, prove the address, recover, profile and signed-in devices.
    route('accounts/signup', 'accounts/signup.tsx'),
    route('accounts/verify/:token', 'accounts/verify-link.tsx'),
    route('accounts/password/forgot', 'accounts/forgot-password.tsx'),
    route('accounts/password/reset/:token', 'accounts/reset-password.tsx'),
    route('account/verify-email', 'accounts/verify-email.tsx'),
    route('account/profile', 'accounts/profile.tsx'),
    route('account/email/confirm/:token', 'accounts/email-confirm.tsx'),
    route('account/sessions', 'accounts/sessions.tsx'),
    route('ajax/logout', 'accounts/ajax-logout.ts'),
    // Campus single sign-on (issue 20, decision 023).
    route('accounts/campus/start', 'accounts/campus-start.tsx'),
    route('accounts/campus/oidc/callback', 'accounts/campus-oidc-callback.tsx'),
    route('accounts/campus/saml/acs', 'accounts/campus-saml-acs.tsx'),
    route('accounts/campus/finish', 'accounts/campus-finish.tsx'),
    route('accounts/campus/saml/metadata/:campusId', 'accounts/campus-saml-metadata.tsx'),
    route('ajax/book/free', 'routes/free-book.tsx'),
    route('cart', 'commerce/cart.tsx'),
    route('checkout', 'commerce/checkout.tsx'),
    route('checkout/complete/:orderId', 'commerce/checkout-complete.tsx'),
    route('checkout/return/:orderId', 'commerce/checkout-return.tsx'),
    route('account', 'accounts/account.tsx'),
    route('account/eula', 'accounts/eula.tsx'),
    route('account/language', 'accounts/language.tsx'),
    // Issue 20: orders and receipts, privacy self-service.
    route('account/orders', 'accounts/orders.tsx'),
    route('account/orders/:orderId', 'accounts/order-receipt.tsx'),
    route('account/orders/:orderId/receipt.pdf', 'accounts/order-receipt-pdf.tsx'),
    route('account/privacy', 'accounts/privacy.tsx'),
    route('account/privacy/export/:token', 'accounts/privacy-export.tsx'),
    route('account/privacy/delete/:token', 'accounts/privacy-delete.tsx'),
    route('account/privacy/deleted', 'accounts/account-deleted.tsx'),
    route('library', 'routes/library.tsx'),
    route('shelf', 'shelf/shelf.tsx'),
    route('redeem', 'routes/redeem.tsx'),
    route('shelf/course-section/:sectionId', 'routes/course-section.tsx'),
    route('site-map', 'routes/site-map.tsx'),
    route('manage/sections/:sectionId/opt-status.csv', 'routes/opt-status-csv.tsx'),
    // Issue 20: the bookstore keeps places in a section for students' addresses.
    route('manage/sections/:sectionId/places', 'manage/section-places.tsx'),
    route('manage/my-classrooms', 'classroom/my-classrooms.tsx'),
    route('manage/courseware-tools', 'manage/courseware-tools.tsx'),
    route('manage/campus-sign-in', 'manage/campus-sign-in.tsx'),
    route('manage/admin', 'manage/catalog-admin.tsx'),
    route('manage/admin/imports', 'manage/catalog-imports.tsx'),
    route('manage/admin/imports/:importId', 'manage/catalog-import.tsx'),
    // Issue 39: campus operations. Each part adds its routes under its own heading.
    // Issue 39 part: courses and sections (Course Manager, Course Admin).
    // Issue 39 part: roster import.
    route('manage/roster-imports', 'manage/roster/roster-imports.tsx'),
    route('manage/roster-imports/:importId', 'manage/roster/roster-import.tsx'),
    route('manage/roster-imports/:importId/report.csv', 'manage/roster/roster-report-csv.tsx'),
    // Issue 39 part: the term at a glance (Inclusive Dashboard, Campus Insights).
    // Issue 39 part: bursar billing.
    // Issue 39 part: refunds.
    // Issue 39 part: help desk (Users, My Users) and Switch Account.
    // Issue 39: end of parts; the placeholder below serves the tools not built yet.
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
    // Courseware launch (issue 14, decision 017): LTI 1.3 and 1.1, the JWKS and the demo tool.
    route('lti/launch', 'launch/launch-start.ts'),
    route('lti/return', 'launch/launch-return.tsx'),
    route('lti1p3/link/launch', 'launch/lti13-auth.ts'),
    route('lti1p3/jwks', 'launch/jwks.ts', { id: 'lti-jwks' }),
    route('.well-known/jwks.json', 'launch/jwks.ts', { id: 'well-known-jwks' }),
    route('lti1p0/link/authorize', 'launch/lti11-authorize.ts'),
    route('lti1p0/link/launch', 'launch/lti11-launch.ts'),
    route('demo-tool/lti13/login', 'launch/demo-tool-login.ts'),
    route('demo-tool/lti13/launch', 'launch/demo-tool-launch13.ts'),
    route('demo-tool/lti11/launch', 'launch/demo-tool-launch11.ts'),
    route('file/read/:fileId', 'routes/file-read.ts', { id: 'file-read' }),
    route('file/read/:fileId/*', 'routes/file-read.ts', { id: 'file-read-resource' }),
    route('bookfile/:fileId/download', 'routes/bookfile-download.ts'),
    route('courses/analytics/:courseId', 'routes/course-analytics.tsx'),
    // Find your course materials (issue 19): the public course lookup.
    route('courses/find', 'courses/find-course.tsx'),
    route('courses/find/sections/:sectionId', 'courses/find-section.tsx'),
    route('inclusive-access', 'courses/inclusive-access.tsx'),
    route('courses/analytics/:courseId/analytics.csv', 'routes/course-analytics-csv.tsx'),
    route('help/bookstore', 'routes/info-page.tsx', { id: 'info-help-bookstore' }),
    ...infoPages.map((page) => route(page, 'routes/info-page.tsx', { id: `info-${page}` })),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
