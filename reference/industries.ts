/**
 * Industry taxonomy modelled on the professional network's "industries V2": twenty
 * top-level groups and the industries under them, with kebab-case slugs of their names.
 *
 * `weight` is the relative share of companies in the industry (IT services and software
 * are common, fisheries rare). `keywords` are the terms a company in the industry uses to
 * describe itself; descriptions are built from them so that full-text search on
 * descriptions finds the industry's companies. `nouns` end company names
 * ("Brightpath Analytics").
 */

export const INDUSTRY_GROUPS = [
  'Accommodation Services',
  'Administrative and Support Services',
  'Construction',
  'Consumer Services',
  'Education',
  'Entertainment Providers',
  'Farming, Ranching, Forestry',
  'Financial Services',
  'Government Administration',
  'Holding Companies',
  'Hospitals and Health Care',
  'Manufacturing',
  'Oil, Gas, and Mining',
  'Professional Services',
  'Real Estate and Equipment Rental Services',
  'Retail',
  'Technology, Information and Media',
  'Transportation, Logistics, Supply Chain and Storage',
  'Utilities',
  'Wholesale',
] as const;

export type IndustryGroup = (typeof INDUSTRY_GROUPS)[number];

export interface Industry {
  slug: string;
  name: string;
  group: IndustryGroup;
  weight: number;
  keywords: readonly string[];
  nouns: readonly string[];
}

export interface GroupVocabulary {
  /** Who the companies of the group sell to. */
  customers: readonly string[];
  /** What they say they deliver ("reduce costs", "grow revenue"). */
  outcomes: readonly string[];
  /** Nouns used in names when the industry has too few of its own. */
  nouns: readonly string[];
  /** Whether the group is mostly non-profit or public sector (no venture funding). */
  nonProfit?: boolean;
}

type Row = [slug: string, name: string, weight: number, keywords: string, nouns: string];

/** Compact rows: keywords and nouns are comma-separated so the table stays readable. */
function group(groupName: IndustryGroup, rows: Row[]): Industry[] {
  return rows.map(([slug, name, weight, keywords, nouns]) => ({
    slug,
    name,
    group: groupName,
    weight,
    keywords: keywords.split(',').map((k) => k.trim()),
    nouns: nouns ? nouns.split(',').map((n) => n.trim()) : [],
  }));
}

export const INDUSTRIES: readonly Industry[] = [
  ...group('Technology, Information and Media', [
    ['software-development', 'Software Development', 60, 'software, SaaS, cloud platform, API, automation, workflow, developer tools, integrations, mobile apps', 'Software, Labs, Technologies, Systems, Cloud, Apps'],
    ['it-services-and-it-consulting', 'IT Services and IT Consulting', 55, 'IT consulting, managed services, cloud migration, digital transformation, infrastructure, helpdesk, ERP implementation, systems integration', 'IT, Technologies, Consulting, Solutions, Systems, Digital'],
    ['technology-information-and-internet', 'Technology, Information and Internet', 25, 'internet, platform, online, digital products, marketplace, search, content, consumer apps', 'Technologies, Digital, Interactive, Online, Media'],
    ['computer-and-network-security', 'Computer and Network Security', 10, 'cybersecurity, threat detection, zero trust, endpoint security, identity, SOC, penetration testing, compliance', 'Security, Cyber, Defense, Shield, Secure'],
    ['data-infrastructure-and-analytics', 'Data Infrastructure and Analytics', 6, 'data platform, analytics, data warehouse, machine learning, AI, business intelligence, data pipelines, observability', 'Data, Analytics, AI, Insights, Intelligence'],
    ['internet-marketplace-platforms', 'Internet Marketplace Platforms', 4, 'marketplace, buyers, sellers, e-commerce, listings, payments, logistics, two-sided platform', 'Market, Marketplace, Exchange, Bazaar'],
    ['telecommunications', 'Telecommunications', 8, 'telecommunications, fiber, broadband, 5G, network infrastructure, VoIP, connectivity, unified communications', 'Telecom, Networks, Communications, Connect, Fiber'],
    ['wireless-services', 'Wireless Services', 2, 'wireless, mobile network, 5G, IoT connectivity, spectrum, towers, SIM', 'Wireless, Mobile, Networks'],
    ['computer-games', 'Computer Games', 3, 'video games, game studio, multiplayer, PC games, console games, game development, esports', 'Games, Studios, Interactive, Entertainment'],
    ['mobile-gaming-apps', 'Mobile Gaming Apps', 2, 'mobile games, casual games, free-to-play, in-app purchases, live ops, game development', 'Games, Studios, Play, Interactive'],
    ['online-audio-and-video-media', 'Online Audio and Video Media', 3, 'streaming, podcasts, video, creators, audio, subscriptions, content', 'Media, Studios, Stream, Audio'],
    ['broadcast-media-production-and-distribution', 'Broadcast Media Production and Distribution', 4, 'broadcasting, television, radio, production, news, documentaries, distribution', 'Media, Broadcasting, Productions, Studios, TV'],
    ['movies-videos-and-sound', 'Movies, Videos, and Sound', 3, 'film production, post-production, video, sound design, animation, visual effects', 'Films, Pictures, Studios, Productions, Sound'],
    ['book-and-periodical-publishing', 'Book and Periodical Publishing', 3, 'publishing, books, magazines, editorial, authors, print, digital editions', 'Publishing, Press, Books, Media'],
    ['newspaper-publishing', 'Newspaper Publishing', 2, 'newspaper, journalism, news, subscriptions, local news, editorial', 'News, Times, Herald, Press'],
    ['information-services', 'Information Services', 4, 'information services, databases, research, market data, directories, intelligence', 'Information, Data, Insights, Research'],
    ['blockchain-services', 'Blockchain Services', 2, 'blockchain, crypto, web3, digital assets, smart contracts, DeFi, wallets, tokenization', 'Chain, Labs, Protocol, Crypto'],
    ['business-intelligence-platforms', 'Business Intelligence Platforms', 2, 'business intelligence, dashboards, reporting, analytics, KPIs, data visualization', 'Analytics, Insights, Metrics, BI'],
  ]),
  ...group('Financial Services', [
    ['financial-services', 'Financial Services', 30, 'financial services, payments, fintech, lending, wealth management, financial planning, credit, banking software', 'Financial, Capital, Finance, Pay, Money, Wealth'],
    ['banking', 'Banking', 8, 'banking, deposits, loans, mortgages, commercial banking, retail banking, treasury', 'Bank, Bancorp, Savings, Trust'],
    ['insurance', 'Insurance', 12, 'insurance, underwriting, claims, policies, risk, life insurance, property and casualty, insurtech', 'Insurance, Assurance, Mutual, Underwriters'],
    ['insurance-agencies-and-brokerages', 'Insurance Agencies and Brokerages', 3, 'insurance brokerage, employee benefits, commercial insurance, risk management, coverage', 'Insurance, Brokers, Agency, Benefits'],
    ['investment-management', 'Investment Management', 8, 'investment management, asset management, portfolios, wealth, funds, fixed income, equities', 'Capital, Investments, Asset Management, Advisors, Partners'],
    ['venture-capital-and-private-equity-principals', 'Venture Capital and Private Equity Principals', 6, 'venture capital, private equity, startups, growth equity, buyouts, portfolio companies, seed investing', 'Ventures, Capital, Partners, Equity, Fund'],
    ['investment-banking', 'Investment Banking', 3, 'investment banking, M&A, capital raising, advisory, IPO, restructuring', 'Capital, Partners, Securities, Advisors'],
    ['capital-markets', 'Capital Markets', 3, 'capital markets, trading, securities, brokerage, market making, derivatives', 'Markets, Securities, Trading, Capital'],
    ['funds-and-trusts', 'Funds and Trusts', 2, 'funds, trusts, fiduciary, estate planning, endowments, fund administration', 'Trust, Fund, Fiduciary'],
  ]),
  ...group('Professional Services', [
    ['business-consulting-and-services', 'Business Consulting and Services', 35, 'consulting, strategy, operations, transformation, process improvement, management consulting, advisory', 'Consulting, Advisors, Partners, Group, Associates'],
    ['accounting', 'Accounting', 12, 'accounting, audit, tax, bookkeeping, payroll, CFO services, financial reporting', 'Accounting, CPAs, Tax, Associates, Partners'],
    ['law-practice', 'Law Practice', 12, 'law firm, litigation, corporate law, intellectual property, employment law, legal counsel', 'Law, Legal, LLP, Attorneys'],
    ['legal-services', 'Legal Services', 6, 'legal services, contracts, compliance, e-discovery, legal tech, paralegal', 'Legal, Law, Counsel'],
    ['advertising-services', 'Advertising Services', 12, 'advertising, media buying, creative, campaigns, programmatic, brand strategy, performance marketing', 'Media, Creative, Agency, Advertising'],
    ['marketing-services', 'Marketing Services', 10, 'marketing, SEO, content marketing, demand generation, social media, branding, growth marketing', 'Marketing, Digital, Agency, Growth, Creative'],
    ['public-relations-and-communications-services', 'Public Relations and Communications Services', 4, 'public relations, communications, media relations, crisis communications, reputation', 'PR, Communications, Public Relations'],
    ['design-services', 'Design Services', 6, 'design, UX, UI, product design, branding, interior design, design systems', 'Design, Studio, Creative'],
    ['graphic-design', 'Graphic Design', 3, 'graphic design, branding, illustration, packaging, print design, visual identity', 'Design, Studio, Graphics'],
    ['architecture-and-planning', 'Architecture and Planning', 6, 'architecture, urban planning, building design, sustainable design, interiors, master planning', 'Architects, Architecture, Design, Studio'],
    ['engineering-services', 'Engineering Services', 8, 'engineering, structural engineering, mechanical engineering, electrical engineering, design, inspection', 'Engineering, Engineers, Technical Services'],
    ['environmental-services', 'Environmental Services', 4, 'environmental consulting, sustainability, remediation, waste management, ESG, emissions', 'Environmental, Green, Earth, Eco'],
    ['human-resources-services', 'Human Resources Services', 6, 'human resources, HR outsourcing, payroll, benefits administration, talent management, PEO', 'HR, People, Talent, Workforce'],
    ['research-services', 'Research Services', 5, 'research, market research, surveys, data collection, consumer insights, studies', 'Research, Insights, Analytics'],
    ['biotechnology-research', 'Biotechnology Research', 5, 'biotechnology, drug discovery, genomics, therapeutics, clinical trials, biologics, life sciences', 'Bio, Therapeutics, Biosciences, Genomics, Pharma'],
    ['strategic-management-services', 'Strategic Management Services', 2, 'strategy, corporate development, executive advisory, turnaround, governance', 'Strategy, Advisors, Partners'],
    ['outsourcing-and-offshoring-consulting', 'Outsourcing and Offshoring Consulting', 3, 'outsourcing, offshoring, BPO, nearshore, shared services, back office', 'Outsourcing, Global Services, Solutions'],
    ['translation-and-localization', 'Translation and Localization', 2, 'translation, localization, interpreting, multilingual content, language services', 'Translations, Language, Lingua'],
    ['photography', 'Photography', 2, 'photography, photo studio, commercial photography, events, portraits, product photography', 'Photography, Studio, Images'],
    ['veterinary-services', 'Veterinary Services', 2, 'veterinary, animal health, pet care, clinics, animal hospital', 'Veterinary, Animal Hospital, Vet Clinic'],
  ]),
  ...group('Hospitals and Health Care', [
    ['hospitals-and-health-care', 'Hospitals and Health Care', 25, 'healthcare, patients, clinical care, health system, telehealth, digital health, care coordination', 'Health, Healthcare, Medical, Care, Clinic'],
    ['hospitals', 'Hospitals', 5, 'hospital, inpatient care, emergency care, surgery, medical center, nursing', 'Hospital, Medical Center, Health System'],
    ['medical-practices', 'Medical Practices', 8, 'medical practice, primary care, physicians, specialists, outpatient, family medicine', 'Medical Group, Family Practice, Clinic, Physicians'],
    ['mental-health-care', 'Mental Health Care', 4, 'mental health, therapy, counseling, behavioral health, psychiatry, wellbeing', 'Behavioral Health, Counseling, Wellness'],
    ['nursing-homes-and-residential-care-facilities', 'Nursing Homes and Residential Care Facilities', 3, 'senior living, assisted living, nursing home, memory care, residential care', 'Senior Living, Care Home, Residences'],
    ['home-health-care-services', 'Home Health Care Services', 2, 'home health, home care, nursing, caregivers, elderly care', 'Home Care, Home Health, Caregivers'],
    ['medical-and-diagnostic-laboratories', 'Medical and Diagnostic Laboratories', 2, 'diagnostics, laboratory testing, pathology, imaging, genetic testing', 'Diagnostics, Labs, Laboratories'],
    ['dentists', 'Dentists', 2, 'dental, dentistry, orthodontics, oral health, dental clinic', 'Dental, Dentistry, Smiles'],
    ['individual-and-family-services', 'Individual and Family Services', 3, 'social services, family support, youth services, case management, community care', 'Family Services, Community Care'],
  ]),
  ...group('Manufacturing', [
    ['pharmaceutical-manufacturing', 'Pharmaceutical Manufacturing', 6, 'pharmaceuticals, drug development, generics, clinical trials, biologics, manufacturing, regulatory', 'Pharma, Pharmaceuticals, Therapeutics, Labs'],
    ['medical-equipment-manufacturing', 'Medical Equipment Manufacturing', 6, 'medical devices, surgical instruments, diagnostics, implants, FDA, medtech', 'Medical, Devices, Medtech, Surgical'],
    ['industrial-machinery-manufacturing', 'Industrial Machinery Manufacturing', 6, 'industrial machinery, equipment, automation, CNC, pumps, compressors, engineering', 'Machinery, Industries, Engineering, Equipment'],
    ['automation-machinery-manufacturing', 'Automation Machinery Manufacturing', 3, 'automation, robotics, motion control, PLC, industrial robots, machine vision', 'Automation, Robotics, Motion'],
    ['motor-vehicle-manufacturing', 'Motor Vehicle Manufacturing', 4, 'automotive, vehicles, electric vehicles, EV, mobility, powertrain', 'Motors, Automotive, Mobility, Vehicles'],
    ['motor-vehicle-parts-manufacturing', 'Motor Vehicle Parts Manufacturing', 2, 'auto parts, components, OEM, tier 1 supplier, braking systems, batteries', 'Components, Parts, Automotive'],
    ['appliances-electrical-and-electronics-manufacturing', 'Appliances, Electrical, and Electronics Manufacturing', 4, 'electronics, electrical equipment, appliances, PCB, power supplies, sensors', 'Electronics, Electric, Devices, Power'],
    ['semiconductor-manufacturing', 'Semiconductor Manufacturing', 2, 'semiconductors, chips, silicon, wafers, chip design, fabrication, ASIC', 'Semiconductor, Silicon, Micro, Chips'],
    ['computers-and-electronics-manufacturing', 'Computers and Electronics Manufacturing', 3, 'computers, electronics, hardware, devices, consumer electronics, servers', 'Electronics, Computing, Devices, Hardware'],
    ['computer-hardware-manufacturing', 'Computer Hardware Manufacturing', 2, 'hardware, servers, storage, networking equipment, data center hardware', 'Hardware, Computing, Systems'],
    ['food-and-beverage-manufacturing', 'Food and Beverage Manufacturing', 5, 'food manufacturing, snacks, packaged foods, ingredients, food safety, brands', 'Foods, Kitchen, Provisions, Farms'],
    ['beverage-manufacturing', 'Beverage Manufacturing', 2, 'beverages, brewery, distillery, coffee, soft drinks, craft beer, wine', 'Brewing, Beverages, Spirits, Distillery'],
    ['chemical-manufacturing', 'Chemical Manufacturing', 4, 'chemicals, specialty chemicals, coatings, polymers, adhesives, materials science', 'Chemicals, Materials, Chemical'],
    ['plastics-manufacturing', 'Plastics Manufacturing', 2, 'plastics, injection molding, packaging, polymers, extrusion', 'Plastics, Polymers, Molding'],
    ['textile-manufacturing', 'Textile Manufacturing', 2, 'textiles, fabrics, apparel manufacturing, yarn, technical textiles', 'Textiles, Fabrics, Mills'],
    ['aviation-and-aerospace-component-manufacturing', 'Aviation and Aerospace Component Manufacturing', 3, 'aerospace, aviation, aircraft components, avionics, space, MRO', 'Aerospace, Aviation, Aero'],
    ['defense-and-space-manufacturing', 'Defense and Space Manufacturing', 2, 'defense, space, satellites, government contracts, launch, rockets', 'Defense, Space, Systems, Orbital'],
    ['packaging-and-containers-manufacturing', 'Packaging and Containers Manufacturing', 2, 'packaging, containers, corrugated, sustainable packaging, labels', 'Packaging, Pack, Containers'],
    ['furniture-and-home-furnishings-manufacturing', 'Furniture and Home Furnishings Manufacturing', 2, 'furniture, home furnishings, office furniture, interiors, woodworking', 'Furniture, Home, Interiors'],
    ['personal-care-product-manufacturing', 'Personal Care Product Manufacturing', 2, 'cosmetics, skincare, personal care, beauty, haircare, fragrance', 'Beauty, Cosmetics, Skincare, Naturals'],
    ['printing-services', 'Printing Services', 2, 'printing, commercial printing, print management, labels, signage, direct mail', 'Printing, Print, Press, Graphics'],
    ['machinery-manufacturing', 'Machinery Manufacturing', 3, 'machinery, heavy equipment, agricultural machinery, construction equipment, manufacturing', 'Machinery, Equipment, Industries'],
    ['electrical-equipment-manufacturing', 'Electrical Equipment Manufacturing', 2, 'electrical equipment, switchgear, transformers, cables, lighting', 'Electric, Electrical, Power'],
  ]),
  ...group('Retail', [
    ['retail', 'Retail', 12, 'retail, stores, omnichannel, consumer products, merchandising, e-commerce, shoppers', 'Stores, Shop, Retail, Goods, Market'],
    ['retail-apparel-and-fashion', 'Retail Apparel and Fashion', 8, 'fashion, apparel, clothing, footwear, accessories, collections, sustainable fashion', 'Apparel, Fashion, Clothing, Boutique, Wear'],
    ['retail-groceries', 'Retail Groceries', 3, 'grocery, supermarket, fresh produce, food retail, organic, delivery', 'Market, Grocers, Foods, Fresh'],
    ['food-and-beverage-retail', 'Food and Beverage Retail', 2, 'specialty food, coffee shops, bakery, wine shop, gourmet', 'Foods, Coffee, Bakery, Provisions'],
    ['online-and-mail-order-retail', 'Online and Mail Order Retail', 3, 'e-commerce, online store, direct-to-consumer, DTC, subscriptions, fulfillment', 'Shop, Store, Direct, Goods'],
    ['retail-luxury-goods-and-jewelry', 'Retail Luxury Goods and Jewelry', 2, 'luxury, jewelry, watches, diamonds, high-end fashion', 'Jewelers, Luxury, Jewelry, Atelier'],
    ['retail-motor-vehicles', 'Retail Motor Vehicles', 2, 'car dealership, used cars, vehicle sales, auto financing, service center', 'Motors, Auto Group, Automotive'],
    ['retail-health-and-personal-care-products', 'Retail Health and Personal Care Products', 2, 'pharmacy, health products, vitamins, supplements, personal care', 'Pharmacy, Health, Wellness'],
  ]),
  ...group('Wholesale', [
    ['wholesale', 'Wholesale', 4, 'wholesale, distribution, B2B supply, inventory, sourcing, procurement', 'Distribution, Supply, Trading, Wholesale'],
    ['wholesale-import-and-export', 'Wholesale Import and Export', 4, 'import, export, international trade, sourcing, customs, global supply', 'Trading, Import Export, Global Trade'],
    ['wholesale-building-materials', 'Wholesale Building Materials', 2, 'building materials, lumber, roofing, insulation, construction supplies', 'Building Supply, Materials, Lumber'],
    ['wholesale-food-and-beverage', 'Wholesale Food and Beverage', 2, 'food distribution, foodservice, beverages, restaurant supply, cold chain', 'Food Distributors, Provisions, Supply'],
  ]),
  ...group('Construction', [
    ['construction', 'Construction', 20, 'construction, general contractor, commercial construction, renovation, project management, building', 'Construction, Builders, Contracting, Building Group'],
    ['building-construction', 'Building Construction', 4, 'building construction, commercial buildings, design-build, construction management', 'Builders, Construction, Building'],
    ['civil-engineering', 'Civil Engineering', 5, 'civil engineering, infrastructure, roads, bridges, water systems, surveying', 'Civil, Engineering, Infrastructure'],
    ['residential-building-construction', 'Residential Building Construction', 2, 'home builder, residential construction, custom homes, remodeling', 'Homes, Builders, Residential'],
    ['specialty-trade-contractors', 'Specialty Trade Contractors', 2, 'roofing, concrete, masonry, painting, flooring, contractors', 'Contractors, Roofing, Concrete'],
    ['building-equipment-contractors', 'Building Equipment Contractors', 2, 'HVAC, plumbing, electrical contracting, mechanical systems, fire protection', 'Mechanical, HVAC, Electric, Plumbing'],
  ]),
  ...group('Real Estate and Equipment Rental Services', [
    ['real-estate', 'Real Estate', 20, 'real estate, property management, commercial real estate, residential, investment properties, development', 'Properties, Realty, Real Estate, Development'],
    ['real-estate-agents-and-brokers', 'Real Estate Agents and Brokers', 3, 'real estate brokerage, agents, home sales, listings, buyers, sellers', 'Realty, Realtors, Homes'],
    ['equipment-rental-services', 'Equipment Rental Services', 1, 'equipment rental, heavy equipment, tools, leasing, fleet', 'Rentals, Equipment, Hire'],
  ]),
  ...group('Education', [
    ['education', 'Education', 8, 'education, learning, students, teachers, curriculum, tutoring', 'Education, Learning, Academy, School'],
    ['higher-education', 'Higher Education', 10, 'university, college, research, degree programs, students, faculty', 'College, Institute, University'],
    ['primary-and-secondary-education', 'Primary and Secondary Education', 8, 'school, K-12, students, teachers, curriculum, primary school, secondary school', 'School, Academy, Schools'],
    ['e-learning-providers', 'E-Learning Providers', 6, 'e-learning, online courses, edtech, LMS, upskilling, certification', 'Learning, Academy, Edu, Courses'],
    ['professional-training-and-coaching', 'Professional Training and Coaching', 8, 'training, coaching, leadership development, workshops, corporate training, certification', 'Training, Coaching, Academy, Leadership'],
    ['technical-and-vocational-training', 'Technical and Vocational Training', 2, 'vocational training, trades, apprenticeships, technical skills, certification', 'Technical Institute, Training, Trades'],
  ]),
  ...group('Consumer Services', [
    ['consumer-services', 'Consumer Services', 4, 'consumer services, customers, local services, subscriptions, home services', 'Services, Home Services'],
    ['non-profit-organizations', 'Non-profit Organizations', 10, 'non-profit, mission, volunteers, community, donors, advocacy, programs', 'Foundation, Alliance, Initiative, Project'],
    ['civic-and-social-organizations', 'Civic and Social Organizations', 5, 'community, civic engagement, members, association, social impact', 'Association, Society, Club, Council'],
    ['wellness-and-fitness-services', 'Wellness and Fitness Services', 5, 'fitness, gym, wellness, yoga, personal training, nutrition', 'Fitness, Wellness, Yoga, Gym'],
    ['personal-care-services', 'Personal Care Services', 2, 'salon, spa, beauty services, barber, skincare', 'Salon, Spa, Beauty'],
    ['religious-institutions', 'Religious Institutions', 3, 'church, faith, ministry, congregation, worship, community', 'Church, Ministries, Fellowship'],
    ['philanthropic-fundraising-services', 'Philanthropic Fundraising Services', 2, 'fundraising, philanthropy, donors, grants, campaigns', 'Philanthropy, Giving, Fund'],
  ]),
  ...group('Entertainment Providers', [
    ['entertainment-providers', 'Entertainment Providers', 4, 'entertainment, live events, experiences, audiences, shows', 'Entertainment, Productions, Live'],
    ['performing-arts', 'Performing Arts', 2, 'theater, dance, performances, productions, opera, ballet', 'Theatre, Arts, Company, Ensemble'],
    ['artists-and-writers', 'Artists and Writers', 2, 'art, writing, illustration, content creation, commissions', 'Studio, Creative, Arts'],
    ['museums-historical-sites-and-zoos', 'Museums, Historical Sites, and Zoos', 2, 'museum, exhibitions, collections, heritage, visitors, zoo', 'Museum, Gallery, Heritage'],
    ['spectator-sports', 'Spectator Sports', 3, 'sports, team, league, fans, stadium, athletes', 'Sports, Athletics, FC, Club'],
    ['musicians', 'Musicians', 2, 'music, recording, live performance, touring, record label', 'Music, Records, Sound'],
    ['recreational-facilities', 'Recreational Facilities', 3, 'recreation, golf, parks, leisure, outdoor activities, clubs', 'Recreation, Club, Parks, Outdoors'],
  ]),
  ...group('Accommodation Services', [
    ['hospitality', 'Hospitality', 6, 'hospitality, guests, hotels, resorts, guest experience, events', 'Hospitality, Hotels, Resorts, Collection'],
    ['food-and-beverage-services', 'Food and Beverage Services', 10, 'food service, catering, restaurants, coffee, beverages, dining', 'Kitchen, Catering, Coffee, Eatery, Foods'],
    ['restaurants', 'Restaurants', 6, 'restaurant, dining, chef, menu, cuisine, hospitality', 'Restaurant, Kitchen, Grill, Bistro'],
    ['hotels-and-motels', 'Hotels and Motels', 3, 'hotel, boutique hotel, rooms, guests, bookings, hospitality', 'Hotel, Inn, Suites, Lodge'],
  ]),
  ...group('Administrative and Support Services', [
    ['staffing-and-recruiting', 'Staffing and Recruiting', 14, 'staffing, recruiting, talent acquisition, executive search, contract staffing, hiring', 'Staffing, Talent, Recruiting, Search, Partners'],
    ['facilities-services', 'Facilities Services', 5, 'facilities management, maintenance, cleaning, property services, workplace services', 'Facility Services, Facilities, Maintenance'],
    ['security-and-investigations', 'Security and Investigations', 3, 'security services, guards, investigations, risk, surveillance', 'Security, Protection, Investigations'],
    ['events-services', 'Events Services', 5, 'events, conferences, trade shows, event planning, weddings, venues', 'Events, Productions, Experiences'],
    ['travel-arrangements', 'Travel Arrangements', 4, 'travel, trips, tours, corporate travel, bookings, destinations', 'Travel, Tours, Journeys, Trips'],
    ['telephone-call-centers', 'Telephone Call Centers', 2, 'call center, customer support, contact center, BPO, telemarketing', 'Contact Center, Support, CX'],
    ['writing-and-editing', 'Writing and Editing', 2, 'writing, editing, copywriting, content, proofreading, technical writing', 'Content, Words, Editorial'],
  ]),
  ...group('Transportation, Logistics, Supply Chain and Storage', [
    ['transportation-logistics-supply-chain-and-storage', 'Transportation, Logistics, Supply Chain and Storage', 12, 'logistics, supply chain, freight, shipping, 3PL, fulfillment, transportation, warehousing', 'Logistics, Freight, Transport, Supply Chain'],
    ['truck-transportation', 'Truck Transportation', 5, 'trucking, freight, LTL, full truckload, fleet, drivers, transportation', 'Trucking, Transport, Freight, Lines'],
    ['freight-and-package-transportation', 'Freight and Package Transportation', 3, 'parcel delivery, courier, last mile, freight forwarding, express', 'Express, Courier, Freight, Delivery'],
    ['airlines-and-aviation', 'Airlines and Aviation', 3, 'airline, aviation, flights, charter, aircraft, airports', 'Air, Airways, Aviation, Jet'],
    ['maritime-transportation', 'Maritime Transportation', 2, 'shipping, maritime, vessels, ports, container shipping, tankers', 'Shipping, Marine, Maritime, Lines'],
    ['warehousing-and-storage', 'Warehousing and Storage', 2, 'warehousing, storage, distribution center, inventory, cold storage', 'Warehousing, Storage, Distribution'],
  ]),
  ...group('Utilities', [
    ['utilities', 'Utilities', 3, 'utilities, electricity, water, natural gas, grid, customers', 'Utilities, Power, Energy'],
    ['renewable-energy-power-generation', 'Renewable Energy Power Generation', 3, 'renewable energy, solar, wind, clean energy, power generation, storage', 'Renewables, Energy, Solar, Wind, Power'],
    ['electric-power-generation', 'Electric Power Generation', 2, 'power generation, electricity, power plants, grid, energy', 'Power, Energy, Generation'],
    ['services-for-renewable-energy', 'Services for Renewable Energy', 2, 'solar installation, EV charging, energy efficiency, battery storage, clean energy', 'Energy, Solar, Power, Charge'],
  ]),
  ...group('Oil, Gas, and Mining', [
    ['oil-and-gas', 'Oil and Gas', 5, 'oil and gas, exploration, drilling, upstream, midstream, pipelines, energy', 'Energy, Petroleum, Resources, Oil'],
    ['mining', 'Mining', 3, 'mining, minerals, exploration, gold, copper, lithium, metals', 'Mining, Minerals, Resources, Metals'],
  ]),
  ...group('Farming, Ranching, Forestry', [
    ['farming', 'Farming', 4, 'farming, agriculture, crops, agtech, produce, sustainable agriculture', 'Farms, Agriculture, Growers, Harvest'],
    ['forestry-and-logging', 'Forestry and Logging', 1, 'forestry, timber, logging, sustainable forestry, wood products', 'Forestry, Timber, Woodlands'],
    ['fisheries', 'Fisheries', 1, 'fisheries, seafood, aquaculture, fishing, marine harvest', 'Seafood, Fisheries, Aquaculture'],
  ]),
  ...group('Government Administration', [
    ['government-administration', 'Government Administration', 6, 'government, public services, agency, municipality, citizens, public administration', 'Agency, Department, Authority, Office'],
    ['armed-forces', 'Armed Forces', 2, 'military, defense, armed forces, service members, national security', 'Command, Forces, Defense'],
    ['law-enforcement', 'Law Enforcement', 2, 'police, law enforcement, public safety, investigations, community policing', 'Police Department, Sheriff Office'],
  ]),
  ...group('Holding Companies', [
    ['holding-companies', 'Holding Companies', 2, 'holding company, subsidiaries, diversified, investments, portfolio, conglomerate', 'Holdings, Group, Industries, Enterprises'],
  ]),
];

export const GROUP_VOCABULARY: Readonly<Record<IndustryGroup, GroupVocabulary>> = {
  'Accommodation Services': {
    customers: ['travelers', 'guests', 'families', 'business travelers', 'event planners', 'local diners'],
    outcomes: ['deliver memorable experiences', 'serve guests every day', 'create welcoming spaces', 'bring people together'],
    nouns: ['Hospitality', 'Collection', 'House'],
  },
  'Administrative and Support Services': {
    customers: ['enterprises', 'mid-market companies', 'hiring managers', 'HR teams', 'property owners', 'corporate clients'],
    outcomes: ['scale their teams', 'reduce operating costs', 'find the right talent', 'keep operations running smoothly'],
    nouns: ['Services', 'Solutions', 'Partners', 'Group'],
  },
  Construction: {
    customers: ['developers', 'property owners', 'public agencies', 'homeowners', 'general contractors', 'architects'],
    outcomes: ['deliver projects on time and on budget', 'build safer infrastructure', 'build with quality', 'reduce project risk'],
    nouns: ['Construction', 'Builders', 'Contractors', 'Group'],
  },
  'Consumer Services': {
    customers: ['families', 'local communities', 'members', 'donors', 'volunteers', 'individuals'],
    outcomes: ['improve lives', 'strengthen communities', 'make a lasting impact', 'support people in need'],
    nouns: ['Services', 'Foundation', 'Association', 'Network'],
    nonProfit: true,
  },
  Education: {
    customers: ['students', 'teachers', 'schools', 'universities', 'lifelong learners', 'employers'],
    outcomes: ['improve learning outcomes', 'build in-demand skills', 'prepare students for careers', 'make education accessible'],
    nouns: ['Academy', 'Learning', 'Institute', 'School'],
  },
  'Entertainment Providers': {
    customers: ['fans', 'audiences', 'families', 'visitors', 'sponsors', 'venues'],
    outcomes: ['create unforgettable experiences', 'entertain audiences', 'bring stories to life', 'grow passionate communities'],
    nouns: ['Entertainment', 'Productions', 'Live', 'Studios'],
  },
  'Farming, Ranching, Forestry': {
    customers: ['food producers', 'retailers', 'distributors', 'local markets', 'processors'],
    outcomes: ['grow high-quality produce', 'farm sustainably', 'improve yields', 'feed communities'],
    nouns: ['Farms', 'Growers', 'Harvest', 'Agri'],
  },
  'Financial Services': {
    customers: ['small businesses', 'consumers', 'institutional investors', 'banks', 'families', 'founders', 'enterprises'],
    outcomes: ['grow and protect wealth', 'access capital', 'manage risk', 'move money faster', 'plan for the future'],
    nouns: ['Capital', 'Financial', 'Partners', 'Group'],
  },
  'Government Administration': {
    customers: ['residents', 'citizens', 'public agencies', 'local businesses', 'communities'],
    outcomes: ['deliver public services', 'keep communities safe', 'serve the public', 'improve quality of life'],
    nouns: ['Agency', 'Department', 'Authority', 'Office'],
    nonProfit: true,
  },
  'Holding Companies': {
    customers: ['portfolio companies', 'shareholders', 'subsidiaries', 'partners'],
    outcomes: ['build long-term value', 'grow a diversified portfolio', 'invest for the long term'],
    nouns: ['Holdings', 'Group', 'Enterprises'],
  },
  'Hospitals and Health Care': {
    customers: ['patients', 'providers', 'health systems', 'payers', 'clinicians', 'caregivers', 'families'],
    outcomes: ['improve patient outcomes', 'deliver compassionate care', 'lower the cost of care', 'make healthcare accessible'],
    nouns: ['Health', 'Care', 'Medical', 'Clinic'],
  },
  Manufacturing: {
    customers: ['OEMs', 'distributors', 'industrial customers', 'retailers', 'manufacturers', 'hospitals', 'consumers'],
    outcomes: ['improve quality and reliability', 'scale production', 'reduce downtime', 'bring innovative products to market'],
    nouns: ['Industries', 'Manufacturing', 'Products', 'Works'],
  },
  'Oil, Gas, and Mining': {
    customers: ['energy markets', 'refiners', 'utilities', 'industrial buyers', 'governments'],
    outcomes: ['produce energy responsibly', 'develop resources safely', 'supply critical minerals'],
    nouns: ['Resources', 'Energy', 'Minerals'],
  },
  'Professional Services': {
    customers: ['enterprises', 'startups', 'law departments', 'CFOs', 'marketing teams', 'public sector clients', 'mid-sized businesses'],
    outcomes: ['make better decisions', 'grow revenue', 'reduce risk', 'stay compliant', 'build stronger brands', 'improve performance'],
    nouns: ['Partners', 'Group', 'Associates', 'Consulting'],
  },
  'Real Estate and Equipment Rental Services': {
    customers: ['investors', 'tenants', 'homebuyers', 'property owners', 'developers', 'contractors'],
    outcomes: ['find the right space', 'maximize property value', 'buy and sell with confidence', 'grow their portfolios'],
    nouns: ['Properties', 'Realty', 'Estates', 'Group'],
  },
  Retail: {
    customers: ['shoppers', 'consumers', 'families', 'online customers', 'loyal members'],
    outcomes: ['find products they love', 'shop with confidence', 'get more value', 'shop sustainably'],
    nouns: ['Store', 'Shop', 'Goods', 'Co'],
  },
  'Technology, Information and Media': {
    customers: ['developers', 'enterprises', 'startups', 'IT teams', 'product teams', 'SMBs', 'revenue teams', 'data teams', 'security teams'],
    outcomes: ['ship faster', 'automate manual work', 'scale securely', 'reduce costs', 'turn data into decisions', 'reach their audiences'],
    nouns: ['Technologies', 'Labs', 'Systems', 'Digital'],
  },
  'Transportation, Logistics, Supply Chain and Storage': {
    customers: ['shippers', 'retailers', 'manufacturers', 'e-commerce brands', 'carriers', 'importers'],
    outcomes: ['move goods faster', 'reduce shipping costs', 'gain supply chain visibility', 'deliver on time'],
    nouns: ['Logistics', 'Transport', 'Freight', 'Lines'],
  },
  Utilities: {
    customers: ['households', 'businesses', 'municipalities', 'grid operators', 'industrial customers'],
    outcomes: ['deliver reliable power', 'accelerate the energy transition', 'reduce emissions', 'keep water clean and safe'],
    nouns: ['Energy', 'Power', 'Utilities'],
  },
  Wholesale: {
    customers: ['retailers', 'contractors', 'restaurants', 'resellers', 'manufacturers', 'distributors'],
    outcomes: ['source reliably', 'keep shelves stocked', 'lower procurement costs', 'reach new markets'],
    nouns: ['Distribution', 'Supply', 'Trading'],
  },
};

const industriesBySlug = new Map(INDUSTRIES.map((i) => [i.slug, i]));

export function industryBySlug(slug: string): Industry | undefined {
  return industriesBySlug.get(slug);
}

/** Industries whose organisations are charities, churches or public bodies: never venture funded. */
export const NON_PROFIT_INDUSTRIES: ReadonlySet<string> = new Set([
  'non-profit-organizations',
  'civic-and-social-organizations',
  'religious-institutions',
  'philanthropic-fundraising-services',
  'government-administration',
  'armed-forces',
  'law-enforcement',
  'primary-and-secondary-education',
  'higher-education',
  'museums-historical-sites-and-zoos',
]);
