/**
 * Languages and the proficiency levels of profiles, in the wording the professional
 * network uses for them.
 */
export const PROFICIENCY_NAMES = [
  'Elementary proficiency',
  'Limited working proficiency',
  'Professional working proficiency',
  'Full professional proficiency',
  'Native or bilingual proficiency',
] as const;
export type ProficiencyName = (typeof PROFICIENCY_NAMES)[number];

export const NATIVE_PROFICIENCY: ProficiencyName = 'Native or bilingual proficiency';

/** Languages people list as second languages most often, most common first. */
export const COMMON_SECOND_LANGUAGES: readonly string[] = [
  'English',
  'Spanish',
  'French',
  'German',
  'Chinese',
  'Portuguese',
  'Italian',
  'Japanese',
  'Arabic',
  'Russian',
  'Hindi',
  'Korean',
  'Dutch',
];

/** Every language name used by the dataset (countries.ts draws from these). */
export const LANGUAGES: readonly string[] = [
  'Afrikaans', 'Akan', 'Arabic', 'Bengali', 'Bulgarian', 'Cantonese', 'Catalan', 'Cebuano', 'Chinese', 'Croatian',
  'Czech', 'Danish', 'Dutch', 'English', 'Estonian', 'Filipino', 'Finnish', 'French', 'German', 'Greek', 'Gujarati',
  'Hausa', 'Hebrew', 'Hindi', 'Hungarian', 'Igbo', 'Indonesian', 'Irish', 'Italian', 'Japanese', 'Javanese', 'Kannada',
  'Korean', 'Latvian', 'Lithuanian', 'Luxembourgish', 'Malay', 'Malayalam', 'Mandarin', 'Marathi', 'Māori',
  'Norwegian', 'Polish', 'Portuguese', 'Punjabi', 'Romanian', 'Russian', 'Serbian', 'Sindhi', 'Sinhala', 'Spanish',
  'Swahili', 'Swedish', 'Taiwanese Hokkien', 'Tamil', 'Telugu', 'Thai', 'Turkish', 'Ukrainian', 'Urdu',
  'Vietnamese', 'Welsh', 'Xhosa', 'Yoruba', 'Zulu',
];
