// The built-in test wallet's tokens (pure: the product page's wallet sheet offers them). Like a
// provider's test mode, one pays and one is declined.
export const TEST_WALLET_TOKEN = 'tok_test_wallet';
export const TEST_WALLET_DECLINED_TOKEN = 'tok_test_wallet_declined';
