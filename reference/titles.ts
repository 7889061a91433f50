import type { IndustryGroup } from './industries.js';

/**
 * Job titles by job function and seniority, as people actually write them on their
 * profiles. Years of experience, tags and headline follow from the seniority.
 */
export const SENIORITIES = ['ENTRY', 'SENIOR', 'MANAGER', 'DIRECTOR', 'VP', 'CXO', 'OWNER'] as const;
export type Seniority = (typeof SENIORITIES)[number];

/** Years of total experience typical of each seniority, inclusive bounds. */
export const SENIORITY_EXPERIENCE: Readonly<Record<Seniority, readonly [number, number]>> = {
  ENTRY: [0, 4],
  SENIOR: [3, 15],
  MANAGER: [5, 20],
  DIRECTOR: [8, 26],
  VP: [12, 30],
  CXO: [14, 38],
  OWNER: [3, 40],
};

export const JOB_FUNCTIONS = [
  'engineering',
  'product',
  'design',
  'data',
  'information-technology',
  'sales',
  'marketing',
  'customer-success',
  'operations',
  'finance',
  'human-resources',
  'legal',
  'consulting',
  'healthcare',
  'education',
  'engineering-and-construction',
  'research',
  'frontline',
  'general-management',
] as const;
export type JobFunction = (typeof JOB_FUNCTIONS)[number];

/** Titles of each function by seniority; a missing seniority falls back to general management. */
export const TITLES: Readonly<Record<JobFunction, Readonly<Partial<Record<Seniority, readonly string[]>>>>> = {
  engineering: {
    ENTRY: ['Software Engineer', 'Junior Software Engineer', 'Associate Software Engineer', 'Software Engineer I', 'QA Engineer', 'Frontend Developer', 'Backend Developer', 'Software Developer'],
    SENIOR: ['Senior Software Engineer', 'Staff Software Engineer', 'Principal Software Engineer', 'Full Stack Developer', 'DevOps Engineer', 'Site Reliability Engineer', 'Senior Frontend Engineer', 'Senior Backend Engineer', 'Software Architect', 'Machine Learning Engineer', 'Mobile Engineer', 'Cloud Engineer', 'Senior QA Engineer', 'Platform Engineer'],
    MANAGER: ['Engineering Manager', 'Software Development Manager', 'QA Manager', 'Technical Lead', 'Senior Engineering Manager'],
    DIRECTOR: ['Director of Engineering', 'Senior Director of Engineering', 'Head of Engineering', 'Head of Platform'],
    VP: ['VP of Engineering', 'Vice President of Engineering', 'SVP of Engineering'],
    CXO: ['Chief Technology Officer', 'CTO'],
    OWNER: ['Co-Founder & CTO', 'Technical Co-Founder'],
  },
  product: {
    ENTRY: ['Associate Product Manager', 'Product Analyst'],
    SENIOR: ['Product Manager', 'Senior Product Manager', 'Technical Product Manager', 'Product Owner', 'Group Product Manager', 'Principal Product Manager'],
    MANAGER: ['Product Lead', 'Lead Product Manager'],
    DIRECTOR: ['Director of Product Management', 'Head of Product', 'Director of Product'],
    VP: ['VP of Product', 'Vice President of Product'],
    CXO: ['Chief Product Officer'],
  },
  design: {
    ENTRY: ['Junior Designer', 'UX Designer', 'Graphic Designer', 'Junior UX Designer'],
    SENIOR: ['Senior Product Designer', 'UX Researcher', 'Product Designer', 'UI/UX Designer', 'Visual Designer', 'Senior Graphic Designer', 'Art Director'],
    MANAGER: ['Design Manager', 'Creative Lead', 'Design Lead'],
    DIRECTOR: ['Head of Design', 'Creative Director', 'Design Director'],
    VP: ['VP of Design'],
    CXO: ['Chief Design Officer', 'Chief Creative Officer'],
  },
  data: {
    ENTRY: ['Data Analyst', 'Junior Data Scientist', 'Business Intelligence Analyst', 'Junior Data Analyst'],
    SENIOR: ['Data Scientist', 'Senior Data Scientist', 'Data Engineer', 'Senior Data Engineer', 'Analytics Engineer', 'Senior Data Analyst', 'Machine Learning Scientist'],
    MANAGER: ['Analytics Manager', 'Data Science Manager', 'Data Engineering Manager'],
    DIRECTOR: ['Director of Data Science', 'Head of Data', 'Director of Analytics'],
    VP: ['VP of Data', 'VP of Analytics'],
    CXO: ['Chief Data Officer', 'Chief Analytics Officer'],
  },
  'information-technology': {
    ENTRY: ['IT Support Specialist', 'Help Desk Technician', 'Systems Administrator', 'IT Technician'],
    SENIOR: ['Network Engineer', 'Senior Systems Administrator', 'IT Specialist', 'Security Analyst', 'Information Security Engineer', 'Database Administrator', 'Systems Engineer', 'Security Engineer'],
    MANAGER: ['IT Manager', 'Infrastructure Manager', 'IT Project Manager'],
    DIRECTOR: ['Director of IT', 'Director of Information Security', 'Head of IT'],
    VP: ['VP of IT', 'VP of Information Technology'],
    CXO: ['Chief Information Officer', 'Chief Information Security Officer'],
  },
  sales: {
    ENTRY: ['Sales Development Representative', 'Business Development Representative', 'Inside Sales Representative', 'Sales Associate', 'Sales Representative'],
    SENIOR: ['Account Executive', 'Senior Account Executive', 'Enterprise Account Executive', 'Account Manager', 'Key Account Manager', 'Sales Engineer', 'Solutions Consultant', 'Business Development Manager', 'Strategic Account Manager', 'Territory Manager'],
    MANAGER: ['Sales Manager', 'Regional Sales Manager', 'Area Sales Manager', 'Sales Team Lead', 'Inside Sales Manager'],
    DIRECTOR: ['Director of Sales', 'Head of Sales', 'Sales Director', 'Director of Business Development', 'Regional Sales Director'],
    VP: ['VP of Sales', 'Vice President of Sales', 'SVP of Sales', 'VP of Business Development'],
    CXO: ['Chief Revenue Officer', 'Chief Sales Officer', 'Chief Commercial Officer'],
  },
  marketing: {
    ENTRY: ['Marketing Coordinator', 'Marketing Assistant', 'Social Media Coordinator', 'Content Writer', 'Marketing Associate'],
    SENIOR: ['Digital Marketing Specialist', 'Content Marketing Manager', 'Product Marketing Manager', 'SEO Specialist', 'Growth Marketing Manager', 'Brand Manager', 'Marketing Specialist', 'Demand Generation Manager', 'Senior Product Marketing Manager', 'Communications Specialist'],
    MANAGER: ['Marketing Manager', 'Senior Marketing Manager', 'Communications Manager'],
    DIRECTOR: ['Director of Marketing', 'Head of Marketing', 'Marketing Director', 'Head of Growth', 'Director of Communications'],
    VP: ['VP of Marketing', 'Vice President of Marketing', 'VP of Growth'],
    CXO: ['Chief Marketing Officer', 'CMO'],
  },
  'customer-success': {
    ENTRY: ['Customer Support Representative', 'Customer Success Associate', 'Support Specialist', 'Customer Service Representative'],
    SENIOR: ['Customer Success Manager', 'Senior Customer Success Manager', 'Technical Account Manager', 'Implementation Specialist', 'Onboarding Specialist', 'Technical Support Engineer'],
    MANAGER: ['Customer Support Manager', 'Customer Success Team Lead', 'Customer Service Manager'],
    DIRECTOR: ['Director of Customer Success', 'Head of Customer Experience', 'Director of Customer Support'],
    VP: ['VP of Customer Success', 'VP of Customer Experience'],
    CXO: ['Chief Customer Officer'],
  },
  operations: {
    ENTRY: ['Operations Coordinator', 'Operations Associate', 'Office Assistant', 'Logistics Coordinator', 'Administrative Assistant', 'Executive Assistant'],
    SENIOR: ['Operations Analyst', 'Project Manager', 'Program Manager', 'Supply Chain Analyst', 'Procurement Specialist', 'Business Analyst', 'Senior Project Manager', 'Buyer', 'Senior Program Manager'],
    MANAGER: ['Operations Manager', 'Office Manager', 'Supply Chain Manager', 'Plant Manager', 'Warehouse Manager', 'Procurement Manager', 'Logistics Manager'],
    DIRECTOR: ['Director of Operations', 'Head of Operations', 'Director of Supply Chain', 'Director of Program Management'],
    VP: ['VP of Operations', 'Vice President of Operations', 'VP of Supply Chain'],
    CXO: ['Chief Operating Officer', 'COO'],
  },
  finance: {
    ENTRY: ['Accountant', 'Junior Accountant', 'Financial Analyst', 'Accounts Payable Specialist', 'Staff Accountant', 'Bookkeeper'],
    SENIOR: ['Senior Accountant', 'Senior Financial Analyst', 'FP&A Analyst', 'Tax Specialist', 'Auditor', 'Senior Auditor', 'Credit Analyst', 'Investment Analyst', 'Financial Advisor', 'Associate'],
    MANAGER: ['Finance Manager', 'Accounting Manager', 'Controller', 'Tax Manager', 'Audit Manager'],
    DIRECTOR: ['Director of Finance', 'Finance Director', 'Head of Finance', 'Financial Controller', 'Director of FP&A'],
    VP: ['VP of Finance', 'VP Finance & Administration', 'Vice President, Finance'],
    CXO: ['Chief Financial Officer', 'CFO'],
  },
  'human-resources': {
    ENTRY: ['HR Coordinator', 'Recruiting Coordinator', 'HR Assistant', 'Talent Acquisition Coordinator'],
    SENIOR: ['Recruiter', 'Technical Recruiter', 'Senior Recruiter', 'HR Business Partner', 'Talent Acquisition Specialist', 'HR Generalist', 'People Operations Specialist', 'Senior HR Business Partner'],
    MANAGER: ['HR Manager', 'Talent Acquisition Manager', 'People Operations Manager', 'Recruiting Manager'],
    DIRECTOR: ['Director of Human Resources', 'Head of People', 'Head of Talent Acquisition', 'HR Director'],
    VP: ['VP of People', 'VP of Human Resources', 'VP of Talent'],
    CXO: ['Chief People Officer', 'Chief Human Resources Officer'],
  },
  legal: {
    ENTRY: ['Paralegal', 'Legal Assistant', 'Junior Associate', 'Trainee Solicitor'],
    SENIOR: ['Associate Attorney', 'Corporate Counsel', 'Legal Counsel', 'Senior Associate', 'Compliance Specialist', 'Contract Manager', 'Attorney', 'Solicitor'],
    MANAGER: ['Compliance Manager', 'Senior Counsel', 'Legal Manager'],
    DIRECTOR: ['Director of Legal', 'Head of Legal', 'Associate General Counsel', 'Head of Compliance'],
    VP: ['Deputy General Counsel', 'VP Legal'],
    CXO: ['General Counsel', 'Chief Legal Officer', 'Chief Compliance Officer'],
    OWNER: ['Partner', 'Managing Partner', 'Founding Partner'],
  },
  consulting: {
    ENTRY: ['Analyst', 'Associate Consultant', 'Business Analyst', 'Junior Consultant'],
    SENIOR: ['Consultant', 'Senior Consultant', 'Senior Associate', 'Management Consultant', 'Strategy Consultant'],
    MANAGER: ['Engagement Manager', 'Manager', 'Senior Manager', 'Project Lead'],
    DIRECTOR: ['Associate Partner', 'Director', 'Practice Lead'],
    VP: ['Principal', 'Senior Director'],
    CXO: ['Chief Strategy Officer'],
    OWNER: ['Partner', 'Managing Partner', 'Founder & Principal Consultant'],
  },
  healthcare: {
    ENTRY: ['Medical Assistant', 'Nursing Assistant', 'Pharmacy Technician', 'Patient Care Technician', 'Medical Receptionist'],
    SENIOR: ['Registered Nurse', 'Nurse Practitioner', 'Physician', 'Physical Therapist', 'Pharmacist', 'Clinical Research Coordinator', 'Physician Assistant', 'Dentist', 'Occupational Therapist', 'Psychologist'],
    MANAGER: ['Nurse Manager', 'Clinical Manager', 'Practice Manager', 'Charge Nurse'],
    DIRECTOR: ['Director of Nursing', 'Medical Director', 'Clinical Director'],
    VP: ['VP of Clinical Operations', 'VP of Patient Care Services'],
    CXO: ['Chief Medical Officer', 'Chief Nursing Officer'],
    OWNER: ['Owner & Physician', 'Practice Owner'],
  },
  education: {
    ENTRY: ['Teaching Assistant', 'Tutor', 'Research Assistant', 'Graduate Teaching Assistant'],
    SENIOR: ['Teacher', 'Lecturer', 'Assistant Professor', 'Associate Professor', 'Professor', 'Instructional Designer', 'Research Fellow', 'Senior Lecturer'],
    MANAGER: ['Program Manager', 'Department Head', 'Academic Coordinator'],
    DIRECTOR: ['School Principal', 'Dean', 'Director of Admissions', 'Head of School'],
    VP: ['Vice Provost', 'Vice President of Academic Affairs'],
    CXO: ['Provost', 'Superintendent', 'Chancellor'],
  },
  'engineering-and-construction': {
    ENTRY: ['Project Engineer', 'Site Engineer', 'Field Technician', 'Estimator', 'Drafter', 'Graduate Engineer'],
    SENIOR: ['Civil Engineer', 'Mechanical Engineer', 'Electrical Engineer', 'Structural Engineer', 'Project Manager', 'Superintendent', 'Quality Engineer', 'Manufacturing Engineer', 'Process Engineer', 'Senior Mechanical Engineer', 'Architect'],
    MANAGER: ['Construction Manager', 'Production Manager', 'Engineering Manager', 'Maintenance Manager', 'Quality Manager'],
    DIRECTOR: ['Director of Construction', 'Director of Manufacturing', 'Plant Director', 'Director of Engineering'],
    VP: ['VP of Manufacturing', 'VP of Construction', 'VP of Engineering'],
    CXO: ['Chief Operating Officer', 'Chief Technical Officer'],
  },
  research: {
    ENTRY: ['Research Associate', 'Lab Technician', 'Research Technician'],
    SENIOR: ['Scientist', 'Senior Scientist', 'Principal Scientist', 'Clinical Research Associate', 'Regulatory Affairs Specialist', 'Research Scientist'],
    MANAGER: ['Lab Manager', 'Clinical Project Manager', 'Research Manager'],
    DIRECTOR: ['Director of Research', 'Director of Regulatory Affairs', 'Head of R&D'],
    VP: ['VP of Research and Development', 'VP of Clinical Development'],
    CXO: ['Chief Scientific Officer', 'Chief Medical Officer'],
  },
  frontline: {
    ENTRY: ['Sales Associate', 'Cashier', 'Server', 'Front Desk Agent', 'Barista', 'Driver', 'Warehouse Associate'],
    SENIOR: ['Chef', 'Sous Chef', 'Visual Merchandiser', 'Buyer', 'Event Coordinator', 'Dispatcher', 'Shift Supervisor'],
    MANAGER: ['Store Manager', 'Restaurant Manager', 'Assistant Store Manager', 'Hotel Manager', 'Event Manager', 'Fleet Manager'],
    DIRECTOR: ['District Manager', 'Director of Food and Beverage', 'Director of Retail', 'Regional Manager'],
    VP: ['VP of Retail Operations', 'VP of Stores'],
    CXO: ['Chief Merchandising Officer'],
  },
  'general-management': {
    ENTRY: ['Management Trainee', 'Executive Assistant'],
    SENIOR: ['Chief of Staff', 'Business Manager', 'Strategy Manager'],
    MANAGER: ['General Manager', 'Branch Manager', 'Country Manager'],
    DIRECTOR: ['Managing Director', 'Regional Director', 'Director of Strategy'],
    VP: ['Executive Vice President', 'Senior Vice President', 'Vice President'],
    CXO: ['Chief Executive Officer', 'CEO', 'President', 'President & CEO', 'Chief Strategy Officer'],
    OWNER: ['Founder', 'Co-Founder', 'Founder & CEO', 'Owner', 'Managing Partner', 'Co-Founder & CEO', 'Principal', 'Owner & Managing Director'],
  },
};

/** Everyday shares of job functions in a company; `GROUP_FUNCTION_WEIGHTS` adjusts them per industry group. */
export const BASE_FUNCTION_WEIGHTS: Readonly<Record<JobFunction, number>> = {
  engineering: 6,
  product: 1,
  design: 1,
  data: 1,
  'information-technology': 4,
  sales: 14,
  marketing: 7,
  'customer-success': 5,
  operations: 12,
  finance: 7,
  'human-resources': 5,
  legal: 1.5,
  consulting: 2,
  healthcare: 0.5,
  education: 1,
  'engineering-and-construction': 3,
  research: 0.5,
  frontline: 5,
  'general-management': 6,
};

export const GROUP_FUNCTION_WEIGHTS: Readonly<Partial<Record<IndustryGroup, Partial<Record<JobFunction, number>>>>> = {
  'Technology, Information and Media': { engineering: 28, product: 6, design: 4, data: 5, 'information-technology': 7, 'customer-success': 8, frontline: 0.5 },
  'Financial Services': { finance: 20, sales: 16, data: 3, engineering: 5, 'customer-success': 6, legal: 3 },
  'Professional Services': { consulting: 18, legal: 8, finance: 9, marketing: 9, design: 3, research: 2 },
  'Hospitals and Health Care': { healthcare: 40, operations: 12, frontline: 2, engineering: 1 },
  Manufacturing: { 'engineering-and-construction': 18, operations: 18, research: 3, frontline: 4 },
  Retail: { frontline: 30, sales: 14, marketing: 8, operations: 10 },
  Wholesale: { sales: 20, operations: 18, frontline: 8 },
  Construction: { 'engineering-and-construction': 28, operations: 12 },
  'Real Estate and Equipment Rental Services': { sales: 22, finance: 9, operations: 10 },
  Education: { education: 45, operations: 8 },
  'Consumer Services': { frontline: 12, operations: 12, marketing: 8 },
  'Entertainment Providers': { frontline: 10, marketing: 10, design: 3 },
  'Accommodation Services': { frontline: 35, operations: 10 },
  'Administrative and Support Services': { 'human-resources': 20, sales: 16, operations: 16, frontline: 8 },
  'Transportation, Logistics, Supply Chain and Storage': { operations: 25, frontline: 15, sales: 12 },
  Utilities: { 'engineering-and-construction': 18, operations: 14 },
  'Oil, Gas, and Mining': { 'engineering-and-construction': 22, operations: 14, research: 2 },
  'Farming, Ranching, Forestry': { operations: 20, frontline: 12 },
  'Government Administration': { operations: 18, legal: 5, 'information-technology': 6 },
  'Holding Companies': { finance: 15, 'general-management': 10, legal: 4 },
};

/** Industries where research roles are the core of the business, not a side function. */
export const RESEARCH_HEAVY_INDUSTRIES: ReadonlySet<string> = new Set([
  'biotechnology-research',
  'pharmaceutical-manufacturing',
  'research-services',
  'medical-and-diagnostic-laboratories',
  'higher-education',
]);

/** Functions whose people count as "technical" (the prospect tag). */
export const TECHNICAL_FUNCTIONS: ReadonlySet<JobFunction> = new Set([
  'engineering',
  'data',
  'information-technology',
  'research',
  'engineering-and-construction',
  'product',
]);
