/**
 * Real universities and schools by country, degree types and fields of study.
 */

export const DEGREE_TYPES = [
  'HIGH_SCHOOL',
  'ASSOCIATES',
  'BACHELORS',
  'MASTERS',
  'MBA',
  'PHD',
  'JD',
  'MD',
  'CERTIFICATE',
] as const;
export type DegreeType = (typeof DEGREE_TYPES)[number];

/** How long each degree usually takes, in years. */
export const DEGREE_YEARS: Readonly<Record<DegreeType, number>> = {
  HIGH_SCHOOL: 4,
  ASSOCIATES: 2,
  BACHELORS: 4,
  MASTERS: 2,
  MBA: 2,
  PHD: 5,
  JD: 3,
  MD: 4,
  CERTIFICATE: 1,
};

export const DEGREE_NAMES: Readonly<Record<DegreeType, string>> = {
  HIGH_SCHOOL: 'High School Diploma',
  ASSOCIATES: "Associate's Degree",
  BACHELORS: "Bachelor's Degree",
  MASTERS: "Master's Degree",
  MBA: 'Master of Business Administration (MBA)',
  PHD: 'Doctor of Philosophy (PhD)',
  JD: 'Juris Doctor (JD)',
  MD: 'Doctor of Medicine (MD)',
  CERTIFICATE: 'Professional Certificate',
};

export const FIELDS_OF_STUDY: readonly string[] = [
  'Computer Science',
  'Software Engineering',
  'Information Technology',
  'Computer Engineering',
  'Electrical Engineering',
  'Mechanical Engineering',
  'Civil Engineering',
  'Chemical Engineering',
  'Industrial Engineering',
  'Data Science',
  'Mathematics',
  'Statistics',
  'Physics',
  'Chemistry',
  'Biology',
  'Biochemistry',
  'Business Administration',
  'Business Administration and Management',
  'Finance',
  'Accounting',
  'Economics',
  'Marketing',
  'International Business',
  'Management Information Systems',
  'Human Resources Management',
  'Supply Chain Management',
  'Operations Management',
  'Entrepreneurship',
  'Communication',
  'Journalism',
  'Psychology',
  'Sociology',
  'Political Science',
  'International Relations',
  'History',
  'English Language and Literature',
  'Philosophy',
  'Law',
  'Medicine',
  'Nursing',
  'Pharmacy',
  'Public Health',
  'Education',
  'Graphic Design',
  'Architecture',
  'Hospitality Administration',
  'Environmental Science',
  'Agricultural Sciences',
  'Fine Arts',
  'Film Studies',
];

/** Fields that suit each job function, so that engineers mostly studied engineering. */
export const FIELDS_BY_FUNCTION: Readonly<Record<string, readonly string[]>> = {
  engineering: ['Computer Science', 'Software Engineering', 'Computer Engineering', 'Electrical Engineering', 'Mathematics', 'Information Technology', 'Physics'],
  product: ['Computer Science', 'Business Administration', 'Economics', 'Management Information Systems', 'Industrial Engineering'],
  design: ['Graphic Design', 'Fine Arts', 'Architecture', 'Psychology', 'Communication'],
  data: ['Data Science', 'Statistics', 'Mathematics', 'Computer Science', 'Economics', 'Physics'],
  'information-technology': ['Information Technology', 'Computer Science', 'Management Information Systems', 'Computer Engineering'],
  sales: ['Business Administration', 'Marketing', 'Communication', 'Economics', 'Psychology', 'International Business'],
  marketing: ['Marketing', 'Communication', 'Journalism', 'Business Administration', 'Psychology', 'Graphic Design'],
  'customer-success': ['Business Administration', 'Communication', 'Psychology', 'Marketing', 'Sociology'],
  operations: ['Operations Management', 'Supply Chain Management', 'Business Administration', 'Industrial Engineering', 'Economics'],
  finance: ['Finance', 'Accounting', 'Economics', 'Business Administration', 'Mathematics'],
  'human-resources': ['Human Resources Management', 'Psychology', 'Business Administration', 'Sociology', 'Communication'],
  legal: ['Law', 'Political Science', 'History', 'Philosophy'],
  consulting: ['Business Administration', 'Economics', 'Finance', 'Industrial Engineering', 'Mathematics'],
  healthcare: ['Medicine', 'Nursing', 'Pharmacy', 'Public Health', 'Biology', 'Psychology'],
  education: ['Education', 'English Language and Literature', 'History', 'Mathematics', 'Psychology', 'Biology'],
  'engineering-and-construction': ['Civil Engineering', 'Mechanical Engineering', 'Electrical Engineering', 'Chemical Engineering', 'Architecture', 'Industrial Engineering'],
  research: ['Biology', 'Biochemistry', 'Chemistry', 'Physics', 'Medicine', 'Public Health'],
  frontline: ['Hospitality Administration', 'Business Administration', 'Communication', 'Marketing'],
  'general-management': ['Business Administration', 'Economics', 'Finance', 'Entrepreneurship', 'International Business'],
};

export interface School {
  name: string;
  countryCode: string;
}

type SchoolList = Readonly<Record<string, readonly string[]>>;

/** Real universities by ISO 2-letter country code. */
const UNIVERSITIES: SchoolList = {
  US: [
    'Harvard University', 'Stanford University', 'Massachusetts Institute of Technology', 'University of California, Berkeley',
    'University of California, Los Angeles', 'University of Michigan', 'New York University', 'Columbia University',
    'University of Pennsylvania', 'Cornell University', 'University of Texas at Austin', 'Georgia Institute of Technology',
    'University of Washington', 'University of Illinois Urbana-Champaign', 'Carnegie Mellon University', 'Duke University',
    'Northwestern University', 'University of Southern California', 'Boston University', 'Arizona State University',
    'Penn State University', 'Ohio State University', 'University of Florida', 'Purdue University', 'Texas A&M University',
    'University of Wisconsin-Madison', 'University of North Carolina at Chapel Hill', 'University of Virginia',
    'Indiana University Bloomington', 'Rutgers University', 'University of Minnesota', 'University of Colorado Boulder',
    'Michigan State University', 'University of Maryland', 'San Jose State University', 'Northeastern University',
    'Brigham Young University', 'University of Chicago', 'Yale University', 'Princeton University', 'DePaul University',
    'Florida State University', 'University of Arizona', 'Virginia Tech', 'Baylor University', 'University of Utah',
  ],
  CA: [
    'University of Toronto', 'University of British Columbia', 'McGill University', 'University of Waterloo',
    'McMaster University', 'Western University', "Queen's University", 'University of Alberta', 'York University',
    'Concordia University', 'University of Calgary', 'Université de Montréal', 'Simon Fraser University',
  ],
  MX: [
    'Universidad Nacional Autónoma de México', 'Tecnológico de Monterrey', 'Instituto Politécnico Nacional',
    'Universidad Iberoamericana', 'Universidad de Guadalajara', 'ITAM',
  ],
  BR: [
    'Universidade de São Paulo', 'Universidade Estadual de Campinas', 'Universidade Federal do Rio de Janeiro',
    'Fundação Getulio Vargas', 'Universidade Federal de Minas Gerais', 'Insper', 'Pontifícia Universidade Católica do Rio de Janeiro',
    'Universidade Federal do Rio Grande do Sul',
  ],
  AR: ['Universidad de Buenos Aires', 'Universidad Torcuato Di Tella', 'Instituto Tecnológico de Buenos Aires', 'Universidad Nacional de Córdoba'],
  CL: ['Pontificia Universidad Católica de Chile', 'Universidad de Chile', 'Universidad Adolfo Ibáñez'],
  CO: ['Universidad de los Andes', 'Universidad Nacional de Colombia', 'Pontificia Universidad Javeriana', 'Universidad EAFIT'],
  PE: ['Pontificia Universidad Católica del Perú', 'Universidad del Pacífico', 'Universidad de Lima'],
  GB: [
    'University of Oxford', 'University of Cambridge', 'Imperial College London', 'University College London',
    'London School of Economics and Political Science', "King's College London", 'University of Edinburgh',
    'University of Manchester', 'University of Bristol', 'University of Warwick', 'University of Leeds',
    'University of Glasgow', 'University of Birmingham', 'University of Nottingham', 'Durham University',
    'University of Sheffield', 'Cardiff University', "Queen's University Belfast",
  ],
  IE: ['Trinity College Dublin', 'University College Dublin', 'University College Cork', 'University of Galway', 'Dublin City University'],
  DE: [
    'Technical University of Munich', 'Ludwig Maximilian University of Munich', 'Heidelberg University',
    'Humboldt University of Berlin', 'RWTH Aachen University', 'Karlsruhe Institute of Technology',
    'Technische Universität Berlin', 'University of Hamburg', 'Goethe University Frankfurt', 'University of Cologne',
    'University of Mannheim', 'WHU - Otto Beisheim School of Management',
  ],
  FR: [
    'HEC Paris', 'École Polytechnique', 'Sorbonne Université', 'Sciences Po', 'ESSEC Business School', 'ESCP Business School',
    'Université Paris-Saclay', 'CentraleSupélec', 'INSEAD', 'Université de Lyon', 'EDHEC Business School', 'Université de Bordeaux',
  ],
  NL: ['University of Amsterdam', 'Delft University of Technology', 'Erasmus University Rotterdam', 'Utrecht University', 'Leiden University', 'Eindhoven University of Technology'],
  BE: ['KU Leuven', 'Ghent University', 'Université libre de Bruxelles', 'Vlerick Business School'],
  ES: ['Universidad Complutense de Madrid', 'Universitat de Barcelona', 'IE University', 'IESE Business School', 'ESADE', 'Universidad Politécnica de Madrid', 'Universidad Carlos III de Madrid'],
  PT: ['Universidade de Lisboa', 'Universidade do Porto', 'Nova School of Business and Economics', 'Universidade de Coimbra'],
  IT: ['Politecnico di Milano', 'Bocconi University', 'Sapienza University of Rome', 'University of Bologna', 'Politecnico di Torino', 'University of Padua'],
  CH: ['ETH Zurich', 'EPFL', 'University of Zurich', 'University of St. Gallen', 'University of Geneva'],
  AT: ['University of Vienna', 'TU Wien', 'Vienna University of Economics and Business', 'Graz University of Technology'],
  SE: ['KTH Royal Institute of Technology', 'Stockholm University', 'Lund University', 'Uppsala University', 'Stockholm School of Economics', 'Chalmers University of Technology'],
  NO: ['University of Oslo', 'Norwegian University of Science and Technology', 'BI Norwegian Business School'],
  DK: ['University of Copenhagen', 'Technical University of Denmark', 'Aarhus University', 'Copenhagen Business School'],
  FI: ['University of Helsinki', 'Aalto University', 'Tampere University'],
  PL: ['University of Warsaw', 'Warsaw University of Technology', 'Jagiellonian University', 'AGH University of Krakow', 'Warsaw School of Economics'],
  CZ: ['Charles University', 'Czech Technical University in Prague', 'Masaryk University'],
  HU: ['Eötvös Loránd University', 'Budapest University of Technology and Economics', 'Corvinus University of Budapest'],
  RO: ['University of Bucharest', 'Politehnica University of Bucharest', 'Babeș-Bolyai University', 'Bucharest University of Economic Studies'],
  GR: ['National and Kapodistrian University of Athens', 'National Technical University of Athens', 'Aristotle University of Thessaloniki', 'Athens University of Economics and Business'],
  UA: ['Taras Shevchenko National University of Kyiv', 'Igor Sikorsky Kyiv Polytechnic Institute', 'Lviv Polytechnic National University'],
  TR: ['Boğaziçi University', 'Middle East Technical University', 'Istanbul Technical University', 'Koç University', 'Sabancı University', 'Bilkent University'],
  IL: ['Tel Aviv University', 'Technion - Israel Institute of Technology', 'Hebrew University of Jerusalem', 'Reichman University', 'Ben-Gurion University of the Negev'],
  AE: ['American University of Sharjah', 'Khalifa University', 'United Arab Emirates University', 'University of Dubai'],
  SA: ['King Saud University', 'King Fahd University of Petroleum and Minerals', 'King Abdulaziz University', 'King Abdullah University of Science and Technology'],
  EG: ['Cairo University', 'The American University in Cairo', 'Ain Shams University', 'Alexandria University'],
  ZA: ['University of Cape Town', 'University of the Witwatersrand', 'Stellenbosch University', 'University of Pretoria', 'University of Johannesburg'],
  NG: ['University of Lagos', 'University of Ibadan', 'Obafemi Awolowo University', 'Covenant University', 'University of Nigeria, Nsukka'],
  KE: ['University of Nairobi', 'Strathmore University', 'Kenyatta University', 'Jomo Kenyatta University of Agriculture and Technology'],
  GH: ['University of Ghana', 'Kwame Nkrumah University of Science and Technology', 'Ashesi University'],
  IN: [
    'Indian Institute of Technology Bombay', 'Indian Institute of Technology Delhi', 'Indian Institute of Technology Madras',
    'Indian Institute of Technology Kanpur', 'Indian Institute of Technology Kharagpur', 'Indian Institute of Science',
    'Indian Institute of Management Ahmedabad', 'Indian Institute of Management Bangalore', 'BITS Pilani',
    'Vellore Institute of Technology', 'Anna University', 'University of Delhi', 'University of Mumbai',
    'Savitribai Phule Pune University', 'Manipal Academy of Higher Education', 'Jawaharlal Nehru Technological University',
    'Amity University', 'National Institute of Technology Tiruchirappalli', 'SRM Institute of Science and Technology',
  ],
  CN: ['Tsinghua University', 'Peking University', 'Fudan University', 'Shanghai Jiao Tong University', 'Zhejiang University', 'University of Science and Technology of China', 'Nanjing University', 'Sun Yat-sen University'],
  JP: ['University of Tokyo', 'Kyoto University', 'Keio University', 'Waseda University', 'Osaka University', 'Tokyo Institute of Technology', 'Tohoku University', 'Hitotsubashi University'],
  KR: ['Seoul National University', 'KAIST', 'Yonsei University', 'Korea University', 'Sungkyunkwan University', 'POSTECH'],
  SG: ['National University of Singapore', 'Nanyang Technological University', 'Singapore Management University', 'Singapore University of Technology and Design'],
  HK: ['The University of Hong Kong', 'The Hong Kong University of Science and Technology', 'The Chinese University of Hong Kong', 'City University of Hong Kong'],
  TW: ['National Taiwan University', 'National Tsing Hua University', 'National Yang Ming Chiao Tung University', 'National Cheng Kung University'],
  ID: ['Universitas Indonesia', 'Institut Teknologi Bandung', 'Universitas Gadjah Mada', 'Binus University'],
  MY: ['Universiti Malaya', 'Universiti Teknologi Malaysia', 'Universiti Kebangsaan Malaysia', "Taylor's University"],
  TH: ['Chulalongkorn University', 'Mahidol University', 'Thammasat University', 'Kasetsart University'],
  VN: ['Vietnam National University, Hanoi', 'Vietnam National University, Ho Chi Minh City', 'Hanoi University of Science and Technology', 'FPT University'],
  PH: ['University of the Philippines', 'Ateneo de Manila University', 'De La Salle University', 'University of Santo Tomas'],
  PK: ['Lahore University of Management Sciences', 'National University of Sciences and Technology', 'University of the Punjab', 'Institute of Business Administration, Karachi'],
  BD: ['University of Dhaka', 'Bangladesh University of Engineering and Technology', 'North South University', 'BRAC University'],
  AU: [
    'University of Melbourne', 'University of Sydney', 'University of New South Wales', 'Australian National University',
    'Monash University', 'University of Queensland', 'University of Technology Sydney', 'RMIT University',
    'University of Western Australia', 'University of Adelaide', 'Macquarie University', 'Queensland University of Technology',
  ],
  NZ: ['University of Auckland', 'Victoria University of Wellington', 'University of Otago', 'University of Canterbury', 'Auckland University of Technology'],
};

/** Colleges that award associate degrees (US) and vocational certificates. */
const COMMUNITY_COLLEGES: SchoolList = {
  US: ['Santa Monica College', 'De Anza College', 'Miami Dade College', 'Austin Community College', 'Northern Virginia Community College', 'Houston Community College', 'Valencia College', 'Foothill College'],
  CA: ['Humber College', 'Seneca Polytechnic', 'George Brown College', 'British Columbia Institute of Technology'],
  GB: ['Open University', 'City of Glasgow College'],
  AU: ['TAFE NSW', 'TAFE Queensland', 'Box Hill Institute'],
};

/** Certificates people list alongside degrees. */
export const CERTIFICATE_PROVIDERS: readonly string[] = [
  'Coursera',
  'General Assembly',
  'Project Management Institute',
  'Google Career Certificates',
  'Amazon Web Services (AWS)',
  'Microsoft',
  'Salesforce',
  'HubSpot Academy',
  'CFA Institute',
  'Le Wagon',
];

export const HIGH_SCHOOLS: readonly string[] = [
  'Lincoln High School',
  'Washington High School',
  'Roosevelt High School',
  'Jefferson High School',
  'Central High School',
  'Kennedy High School',
  'Lakeside High School',
  'Westview High School',
];

export const SCHOOLS: readonly School[] = [
  ...Object.entries(UNIVERSITIES).flatMap(([countryCode, names]) => names.map((name) => ({ name, countryCode }))),
];

export function universitiesOf(countryCode: string): readonly string[] {
  return UNIVERSITIES[countryCode] ?? [];
}

export function collegesOf(countryCode: string): readonly string[] {
  return COMMUNITY_COLLEGES[countryCode] ?? [];
}

/** Business schools people go to for an MBA, wherever they studied before. */
export const BUSINESS_SCHOOLS: readonly string[] = [
  'Harvard Business School',
  'Stanford Graduate School of Business',
  'The Wharton School',
  'INSEAD',
  'London Business School',
  'Kellogg School of Management',
  'Columbia Business School',
  'MIT Sloan School of Management',
  'IESE Business School',
  'HEC Paris',
  'Indian Institute of Management Ahmedabad',
  'Rotman School of Management',
  'Melbourne Business School',
  'Booth School of Business',
  'Haas School of Business',
  'Ross School of Business',
];
