/** The public surface of `themes` for other modules (feature -> feature imports go through this file only). */
export { mapTheme } from './dto/theme.dto.js';
export { ThemesService, listLibraryThemes } from './themes.service.js';
