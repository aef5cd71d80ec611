'use strict';
throw new Error(
	'isolated-vm is not installed in this development tree (see stubs/isolated-vm/package.json); n8n installs its own copy',
);
