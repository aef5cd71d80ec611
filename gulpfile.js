const { task, src, dest, parallel } = require('gulp');

// tsc compiles the TypeScript; the rest of what n8n reads is copied: the icons (light and dark) to
// dist/icons, referenced as file:../../icons/… and file:../icons/…, and each node's codex file
// (*.node.json: categories, documentation links) next to its compiled node.
function copyIcons() {
	return src('icons/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

task('build:icons', parallel(copyIcons, copyCodex));
