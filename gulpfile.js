const { task, src, dest } = require('gulp');

// tsc compiles the TypeScript; the icons (light and dark) go to dist/icons, where the compiled
// nodes and credential reference them as file:../../icons/… and file:../icons/….
task('build:icons', function copyIcons() {
	return src('icons/*.svg', { encoding: false }).pipe(dest('dist/icons'));
});
