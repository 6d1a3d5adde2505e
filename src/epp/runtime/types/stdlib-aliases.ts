/**
 * The type aliases of puppetlabs-stdlib 9.7.0 (Apache-2.0, https://github.com/puppetlabs/puppetlabs-stdlib,
 * types/**.pp), as their Puppet source: resolved by the EPP runtime on first use (see names.ts). Generated
 * by scripts/stdlib-types.mjs; do not edit.
 */
export const STDLIB_TYPE_ALIASES: ReadonlyMap<string, string> = new Map([
  ['Stdlib::Absolutepath', 'Variant[Stdlib::Windowspath, Stdlib::Unixpath]'],
  ['Stdlib::Base32', 'Pattern[/\\A[a-z2-7]+={,6}\\z/, /\\A[A-Z2-7]+={,6}\\z/]'],
  ['Stdlib::Base64', 'Pattern[/\\A[a-zA-Z0-9\\/\\+]+={,2}\\z/]'],
  ['Stdlib::CreateResources', 'Hash[String[1], Hash[String[1], Any]]'],
  ['Stdlib::Datasize', 'Pattern[/^\\d+(?i:[kmgt]b?|b)$/]'],
  ['Stdlib::Dns::Zone', 'Pattern[/\\A((([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\\.)+|\\.)\\z/]'],
  [
    'Stdlib::Email',
    "Pattern[/\\A[a-zA-Z0-9.!#$%&'*+\\/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\\z/]",
  ],
  ['Stdlib::Ensure::File', "Enum['present', 'file', 'directory', 'link', 'absent']"],
  ['Stdlib::Ensure::File::Directory', "Enum['directory', 'absent']"],
  ['Stdlib::Ensure::File::File', "Enum['file', 'absent']"],
  ['Stdlib::Ensure::File::Link', "Enum['link', 'absent']"],
  [
    'Stdlib::Ensure::Package',
    "Variant[Enum['present', 'absent', 'purged', 'disabled', 'installed', 'latest'], String[1]]",
  ],
  ['Stdlib::Ensure::Service', "Enum['stopped', 'running']"],
  [
    'Stdlib::Filemode',
    'Pattern[/\\A(([0-7]{1,4})|(([ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+)(,([ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+))*))\\z/]',
  ],
  [
    'Stdlib::Filesource',
    'Variant[ Stdlib::Absolutepath, Stdlib::HTTPUrl, Pattern[ /\\Afile:\\/\\/\\/([^\\n\\/\\0]+(\\/)?)+\\z/, /\\Apuppet:\\/\\/(([\\w-]+\\.?)+)?\\/([^\\n\\/\\0]+(\\/)?)+\\z/]]',
  ],
  [
    'Stdlib::Fqdn',
    'Pattern[/\\A(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\\-]*[a-zA-Z0-9])\\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\\-]*[A-Za-z0-9])\\z/]',
  ],
  ['Stdlib::HTTPSUrl', 'Pattern[/(?i:\\Ahttps:\\/\\/.*\\z)/]'],
  ['Stdlib::HTTPUrl', 'Pattern[/(?i:\\Ahttps?:\\/\\/.*\\z)/]'],
  ['Stdlib::Host', 'Variant[Stdlib::Fqdn, Stdlib::IP::Address]'],
  [
    'Stdlib::Http::Method',
    "Enum[ 'ACL', 'BASELINE-CONTROL', 'BIND', 'CHECKIN', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LABEL', 'LINK', 'LOCK', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MKREDIRECTREF', 'MKWORKSPACE', 'MOVE', 'OPTIONS', 'ORDERPATCH', 'PATCH', 'POST', 'PRI', 'PROPFIND', 'PROPPATCH', 'PUT', 'REBIND', 'REPORT', 'SEARCH', 'TRACE', 'UNBIND', 'UNCHECKOUT', 'UNLINK', 'UNLOCK', 'UPDATE', 'UPDATEREDIRECTREF', 'VERSION-CONTROL']",
  ],
  ['Stdlib::Http::Status', 'Integer[100, 599]'],
  ['Stdlib::HttpStatus', 'Stdlib::Http::Status'],
  ['Stdlib::IP::Address', 'Variant[ Stdlib::IP::Address::V4, Stdlib::IP::Address::V6]'],
  ['Stdlib::IP::Address::CIDR', 'Variant[ Stdlib::IP::Address::V4::CIDR, Stdlib::IP::Address::V6::CIDR]'],
  [
    'Stdlib::IP::Address::Nosubnet',
    'Variant[ Stdlib::IP::Address::V4::Nosubnet, Stdlib::IP::Address::V6::Nosubnet]',
  ],
  ['Stdlib::IP::Address::V4', 'Variant[ Stdlib::IP::Address::V4::CIDR, Stdlib::IP::Address::V4::Nosubnet]'],
  [
    'Stdlib::IP::Address::V4::CIDR',
    'Pattern[/\\A([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\/([0-9]|[12][0-9]|3[0-2])\\z/]',
  ],
  [
    'Stdlib::IP::Address::V4::Nosubnet',
    'Pattern[/\\A([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/]',
  ],
  [
    'Stdlib::IP::Address::V6',
    'Variant[ Stdlib::IP::Address::V6::Full, Stdlib::IP::Address::V6::Compressed, Stdlib::IP::Address::V6::Alternative, Stdlib::IP::Address::V6::Nosubnet]',
  ],
  [
    'Stdlib::IP::Address::V6::Alternative',
    'Pattern[ /\\A([[:xdigit:]]{1,4}:){6}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){5}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){4}(:[[:xdigit:]]{1,4}){0,1}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){3}(:[[:xdigit:]]{1,4}){0,2}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){2}(:[[:xdigit:]]{1,4}){0,3}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){1}(:[[:xdigit:]]{1,4}){0,4}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A:(:[[:xdigit:]]{1,4}){0,5}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/]',
  ],
  [
    'Stdlib::IP::Address::V6::CIDR',
    'Pattern[/\\A((([0-9A-Fa-f]{1,4}:){7}([0-9A-Fa-f]{1,4}|:))|(([0-9A-Fa-f]{1,4}:){6}(:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3})|:))|(([0-9A-Fa-f]{1,4}:){5}(((:[0-9A-Fa-f]{1,4}){1,2})|:((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3})|:))|(([0-9A-Fa-f]{1,4}:){4}(((:[0-9A-Fa-f]{1,4}){1,3})|((:[0-9A-Fa-f]{1,4})?:((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3}))|:))|(([0-9A-Fa-f]{1,4}:){3}(((:[0-9A-Fa-f]{1,4}){1,4})|((:[0-9A-Fa-f]{1,4}){0,2}:((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3}))|:))|(([0-9A-Fa-f]{1,4}:){2}(((:[0-9A-Fa-f]{1,4}){1,5})|((:[0-9A-Fa-f]{1,4}){0,3}:((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3}))|:))|(([0-9A-Fa-f]{1,4}:){1}(((:[0-9A-Fa-f]{1,4}){1,6})|((:[0-9A-Fa-f]{1,4}){0,4}:((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3}))|:))|(:(((:[0-9A-Fa-f]{1,4}){1,7})|((:[0-9A-Fa-f]{1,4}){0,5}:((25[0-5]|2[0-4]d|1dd|[1-9]?d)(.(25[0-5]|2[0-4]d|1dd|[1-9]?d)){3}))|:)))(%.+)?s*\\/([0-9]|[1-9][0-9]|1[0-1][0-9]|12[0-8])?\\z/]',
  ],
  [
    'Stdlib::IP::Address::V6::Compressed',
    'Pattern[ /\\A:(:|(:[[:xdigit:]]{1,4}){1,7})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){1}(:|(:[[:xdigit:]]{1,4}){1,6})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){2}(:|(:[[:xdigit:]]{1,4}){1,5})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){3}(:|(:[[:xdigit:]]{1,4}){1,4})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){4}(:|(:[[:xdigit:]]{1,4}){1,3})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){5}(:|(:[[:xdigit:]]{1,4}){1,2})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){6}(:|(:[[:xdigit:]]{1,4}){1,1})(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/, /\\A([[:xdigit:]]{1,4}:){7}:(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/]',
  ],
  [
    'Stdlib::IP::Address::V6::Full',
    'Pattern[/\\A[[:xdigit:]]{1,4}(:[[:xdigit:]]{1,4}){7}(\\/(1([01][0-9]|2[0-8])|[1-9][0-9]|[0-9]))?\\z/]',
  ],
  [
    'Stdlib::IP::Address::V6::Nosubnet',
    'Variant[ Stdlib::IP::Address::V6::Nosubnet::Full, Stdlib::IP::Address::V6::Nosubnet::Compressed, Stdlib::IP::Address::V6::Nosubnet::Alternative]',
  ],
  [
    'Stdlib::IP::Address::V6::Nosubnet::Alternative',
    'Pattern[ /\\A([[:xdigit:]]{1,4}:){6}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/, /\\A([[:xdigit:]]{1,4}:){5}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/, /\\A([[:xdigit:]]{1,4}:){4}(:[[:xdigit:]]{1,4}){0,1}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/, /\\A([[:xdigit:]]{1,4}:){3}(:[[:xdigit:]]{1,4}){0,2}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/, /\\A([[:xdigit:]]{1,4}:){2}(:[[:xdigit:]]{1,4}){0,3}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/, /\\A([[:xdigit:]]{1,4}:){1}(:[[:xdigit:]]{1,4}){0,4}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/, /\\A:(:[[:xdigit:]]{1,4}){0,5}:([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\\.([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])){3}\\z/]',
  ],
  [
    'Stdlib::IP::Address::V6::Nosubnet::Compressed',
    'Pattern[ /\\A:(:|(:[[:xdigit:]]{1,4}){1,7})\\z/, /\\A([[:xdigit:]]{1,4}:){1}(:|(:[[:xdigit:]]{1,4}){1,6})\\z/, /\\A([[:xdigit:]]{1,4}:){2}(:|(:[[:xdigit:]]{1,4}){1,5})\\z/, /\\A([[:xdigit:]]{1,4}:){3}(:|(:[[:xdigit:]]{1,4}){1,4})\\z/, /\\A([[:xdigit:]]{1,4}:){4}(:|(:[[:xdigit:]]{1,4}){1,3})\\z/, /\\A([[:xdigit:]]{1,4}:){5}(:|(:[[:xdigit:]]{1,4}){1,2})\\z/, /\\A([[:xdigit:]]{1,4}:){6}(:|(:[[:xdigit:]]{1,4}){1,1})\\z/, /\\A([[:xdigit:]]{1,4}:){7}:\\z/]',
  ],
  ['Stdlib::IP::Address::V6::Nosubnet::Full', 'Pattern[/\\A[[:xdigit:]]{1,4}(:[[:xdigit:]]{1,4}){7}\\z/]'],
  [
    'Stdlib::MAC',
    'Pattern[ /\\A([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})\\z/, /\\A([0-9A-Fa-f]{2}[:-]){19}([0-9A-Fa-f]{2})\\z/]',
  ],
  ['Stdlib::ObjectStore', 'Variant[ Stdlib::ObjectStore::GSUri, Stdlib::ObjectStore::S3Uri]'],
  ['Stdlib::ObjectStore::GSUri', 'Pattern[/\\Ags:\\/\\/.*\\z/]'],
  ['Stdlib::ObjectStore::S3Uri', 'Pattern[/\\As3:\\/\\/.*\\z/]'],
  ['Stdlib::Port', 'Integer[0, 65535]'],
  ['Stdlib::Port::Dynamic', 'Integer[49152, 65535]'],
  ['Stdlib::Port::Ephemeral', 'Stdlib::Port::Dynamic'],
  ['Stdlib::Port::Privileged', 'Integer[1, 1023]'],
  ['Stdlib::Port::Registered', 'Stdlib::Port::User'],
  ['Stdlib::Port::Unprivileged', 'Integer[1024, 65535]'],
  ['Stdlib::Port::User', 'Integer[1024, 49151]'],
  [
    'Stdlib::Syslogfacility',
    "Enum[ 'kern', 'user', 'mail', 'daemon', 'auth', 'syslog', 'lpr', 'news', 'uucp', 'cron', 'authpriv', 'ftp', 'ntp', 'security', 'console', 'solaris-cron', 'local0', 'local1', 'local2', 'local3', 'local4', 'local5', 'local6', 'local7']",
  ],
  ['Stdlib::Unixpath', 'Pattern[/\\A\\/([^\\n\\/\\0]+\\/*)*\\z/]'],
  [
    'Stdlib::Windowspath',
    'Pattern[/\\A(([a-zA-Z]:[\\\\\\/])|([\\\\\\/][\\\\\\/][^\\\\\\/]+[\\\\\\/][^\\\\\\/]+)|([\\\\\\/][\\\\\\/]\\?[\\\\\\/][^\\\\\\/]+)).*\\z/]',
  ],
  ['Stdlib::Yes_no', 'Pattern[/\\A(?i:(yes|no))\\z/]'],
]);
