/**
 * Parts of company names, domains and descriptions.
 *
 * A brand stem is a prefix followed by a suffix ("Bright" + "path" = "Brightpath"). Each
 * stem combined with each domain form gives a distinct domain label, which is what lets
 * the generator hand every company its own domain and slug without remembering the ones
 * already handed out: test/seed checks that no two (prefix, suffix, form) triples spell
 * the same label.
 */

const words = (s: string): string[] => s.trim().split(/\s+/);

export const NAME_PREFIXES: readonly string[] = words(`
  Blue Bright Clear North South East West Silver Iron Green Red Swift True Nova Astra Terra Aqua Alpha
  Apex Vertex Summit Pine Oak Cedar Maple River Lake Stone Sky Sun Star Moon Cloud Quant Cyber Net Core
  Prime Zen Bold Deep High Open Smart Wise Key Gold Fair Peak Arc Atlas Axis Beacon Birch Bluff Boulder
  Brook Canyon Cardinal Carbon Cobalt Comet Coral Crest Crystal Delta Drift Eagle Echo Elm Ember Evergreen
  Falcon Fern Fire Flint Fox Frost Galaxy Garnet Glacier Granite Harbor Hawk Hazel Helix Horizon Indigo
  Iris Ivy Jade Juniper Kestrel Lantern Laurel Legacy Lumen Lunar Lynx Magnet Marble Meadow Mercury Meridian
  Mesa Metro Mint Monarch Mosaic Nimbus Noble Oasis Obsidian Ocean Olive Onyx Orbit Orchid Pacific Palm
  Pebble Pioneer Pixel Polar Prairie Prism Pulse Quartz Quest Radiant Rapid Raven Ridge Rock
  Ruby Sable Saffron Sage Sapphire Scarlet Sequoia Shore Sierra Signal Solar Spark Spruce Steel Storm
  Sterling Strata Tide Timber Titan Topaz Torch Trail Tundra Union Valley Vantage Velvet Venture Verde
  Vista Willow Wolf Zenith Zephyr Acorn Amber Anchor Aspen Aurora Basalt Bayou Bison Blaze Bolt Bramble
  Cascade Chroma Citadel Clover Cobble Copper Cosmo Crane Dawn Dune Elevate Everest Field Fjord Flare
  Forge Gale Grove Halo Heron Hyper Insight Jet Kinetic Linden Lotus Loom Magnolia
  Mammoth Mango Nexus Opal Osprey Paragon Pepper Pilot Pinnacle Plume Quill Rain Reef
  Rover Saga Salt Shift Slate Solstice Sonic Spire Sprout Stellar Tango Thistle Thrive Trek Tulip
  Umber Vector Vivid Wren Yarrow
`);

export const NAME_SUFFIXES: readonly string[] = words(`
  path bridge point wave field stone gate line works forge hub scale stack flow mark wise ly ify
  way view side light base craft shift spring wood land port bay brook dale ford haven crest ridge peak
  vale wind star sky leaf root seed bloom tree fire water rock mind sense logic loop link mint beam bit
  hold glen moor shore mont burg ton ville heim stead wick gard hurst mere ward wright smith keep tower
  arch cove isle glade bolt gear jet kite lark mast pike reed sail shield slope thread vane wing harbor
  ful ster ella etta ivo ano ari ette oni aro ovia eno ence ent ant ance ura ana ist
  byte cast cloud code core dash deck desk dock dot edge fold frame grid grove hive iq kit lab lane lens
  lift loft mesh mill nest node pad pane pilot pod pulse quest rail reach rise route scope set signal
  sphere spot sync tap tide track trail vault verse vine vista ware well yard zone able ara ero ia ica
  ico ika ilo ina ion ity ium iva ix iza on ora ova ovo yx ado eon era eum ex
`);

/**
 * How a stem becomes a domain label. The first form is the bare stem; the others are the
 * usual ways a startup gets a domain when the bare one is taken.
 */
export const DOMAIN_FORMS: readonly { prefix: string; suffix: string }[] = [
  { prefix: '', suffix: '' },
  { prefix: 'get', suffix: '' },
  { prefix: 'try', suffix: '' },
  { prefix: 'use', suffix: '' },
  { prefix: 'go', suffix: '' },
  { prefix: 'join', suffix: '' },
  { prefix: 'hello', suffix: '' },
  { prefix: 'meet', suffix: '' },
  { prefix: '', suffix: 'hq' },
  { prefix: '', suffix: 'app' },
  { prefix: '', suffix: 'labs' },
  { prefix: '', suffix: 'group' },
  { prefix: '', suffix: 'global' },
  { prefix: '', suffix: 'tech' },
  { prefix: '', suffix: 'inc' },
  { prefix: '', suffix: 'co' },
  { prefix: '', suffix: 'team' },
  { prefix: '', suffix: 'online' },
  { prefix: '', suffix: 'digital' },
  { prefix: '', suffix: 'systems' },
  { prefix: '', suffix: 'solutions' },
  { prefix: '', suffix: 'partners' },
  { prefix: '', suffix: 'ventures' },
  { prefix: '', suffix: 'works' },
];

/** Generic top-level domains with their share among company domains outside country TLDs. */
export const GENERIC_TLDS: readonly { tld: string; weight: number }[] = [
  { tld: '.com', weight: 76 },
  { tld: '.io', weight: 7 },
  { tld: '.co', weight: 4 },
  { tld: '.ai', weight: 4 },
  { tld: '.net', weight: 3 },
  { tld: '.org', weight: 2 },
  { tld: '.tech', weight: 1 },
  { tld: '.app', weight: 1 },
  { tld: '.dev', weight: 0.5 },
  { tld: '.xyz', weight: 0.5 },
  { tld: '.health', weight: 0.3 },
  { tld: '.agency', weight: 0.4 },
  { tld: '.studio', weight: 0.3 },
];

/** Free mail providers people use for personal addresses, most used first. */
export const PERSONAL_EMAIL_DOMAINS: readonly { domain: string; weight: number }[] = [
  { domain: 'gmail.com', weight: 62 },
  { domain: 'yahoo.com', weight: 9 },
  { domain: 'outlook.com', weight: 8 },
  { domain: 'hotmail.com', weight: 8 },
  { domain: 'icloud.com', weight: 6 },
  { domain: 'aol.com', weight: 1.5 },
  { domain: 'proton.me', weight: 1.5 },
  { domain: 'gmx.de', weight: 1 },
  { domain: 'web.de', weight: 0.8 },
  { domain: 'yahoo.co.uk', weight: 0.7 },
  { domain: 'orange.fr', weight: 0.5 },
  { domain: 'qq.com', weight: 0.5 },
  { domain: 'mail.ru', weight: 0.3 },
];

/**
 * Description sentences. Placeholders: {name} company name, {industry} industry name in
 * lower case, {keyword}/{keyword2}/{keyword3} industry keywords, {customer} a customer
 * type, {outcome} a promise, {city} and {country} the headquarters, {year} founding year,
 * {adjective} a self-description with its article ("an innovative"), {size} a headcount phrase.
 */
export const DESCRIPTION_OPENERS: readonly string[] = [
  '{name} is {adjective} company in {industry}, headquartered in {city}, {country}.',
  '{name} is a {city}-based company working in {industry}.',
  'Founded in {year}, {name} is {adjective} company in {industry} based in {city}, {country}.',
  'At {name}, we build {keyword} and {keyword2} for {customer}.',
  '{name} provides {keyword} and {keyword2} to {customer} around the world.',
  '{name} is {adjective} provider of {keyword} for {customer}.',
];

export const DESCRIPTION_MIDDLES: readonly string[] = [
  'We help {customer} {outcome} with {keyword} and {keyword2}.',
  'Our team combines deep expertise in {keyword} and {keyword3} to help {customer} {outcome}.',
  'Our {keyword2} offering helps {customer} {outcome}.',
  'We specialise in {keyword}, {keyword2} and {keyword3}.',
  'From {keyword} to {keyword3}, we partner with {customer} to {outcome}.',
  'Trusted by {customer}, we focus on {keyword} and {keyword2}.',
];

export const DESCRIPTION_CLOSERS: readonly string[] = [
  'Since {year}, we have grown to {size} across {country} and beyond.',
  'We are {size} united by a passion for {keyword3}.',
  'Our mission is to help {customer} {outcome}.',
  'We are hiring across teams: join us.',
  'Headquartered in {city}, we serve customers worldwide.',
  '',
];

export const DESCRIPTION_ADJECTIVES: readonly string[] = [
  'leading',
  'fast-growing',
  'independent',
  'award-winning',
  'innovative',
  'trusted',
  'family-owned',
  'global',
  'boutique',
  'customer-focused',
  'technology-driven',
  'full-service',
];
