// The build's asset step (`npm run build`: tsc, then `gulp build:icons`). tsc compiles the TypeScript;
// this copies the only other files n8n reads, and nothing else of the repository: the icons (light and
// dark) to dist/icons, referenced as file:../../icons/… and file:../icons/…, and each node's codex file
// (*.node.json: categories, search words, documentation links) next to its compiled node.
const { task, src, dest, parallel } = require('gulp');

function copyIcons() {
	return src('icons/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/*/*.node.json').pipe(dest('dist/nodes'));
}

task('build:icons', parallel(copyIcons, copyCodex));
