/**
 * Local parts of role addresses: mailboxes of a function or a team (sales@, support@) rather than
 * of one person. Compared after dropping a `+tag` and separators, so `no-reply`, `no_reply` and
 * `noreply` are one.
 */
export const ROLE_LOCAL_PARTS: readonly string[] = [
  'abuse', 'accounting', 'accounts', 'admin', 'administrator', 'all', 'billing', 'bookings', 'careers', 'ceo', 'compliance',
  'contact', 'contactus', 'customercare', 'customerservice', 'customersuccess', 'data', 'dev', 'devnull', 'developers',
  'donotreply', 'editor', 'enquiries', 'enquiry', 'events', 'everyone', 'feedback', 'finance', 'founders', 'hello', 'help',
  'helpdesk', 'hi', 'hostmaster', 'hr', 'info', 'information', 'inquiries', 'inquiry', 'investors', 'it', 'jobs', 'legal',
  'mail', 'mailerdaemon', 'marketing', 'media', 'news', 'newsletter', 'noc', 'noreply', 'notifications', 'office', 'ops',
  'operations', 'orders', 'partners', 'payments', 'postmaster', 'press', 'privacy', 'procurement', 'purchasing', 'recruiting',
  'recruitment', 'reservations', 'root', 'sales', 'security', 'service', 'services', 'shop', 'staff', 'support', 'sysadmin',
  'team', 'tech', 'test', 'webmaster', 'welcome',
];
