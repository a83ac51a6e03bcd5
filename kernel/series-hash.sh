# series_hash TOP: one hash for patches/series and every patch it names.
series_list() {
	[ -f "$1/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1/patches/series" | grep -v '^$' || true
}

series_hash() {
	local p
	{
		cat "$1/patches/series" 2>/dev/null
		for p in $(series_list "$1"); do cat "$1/patches/$p"; done
	} | sha256sum | cut -d' ' -f1
}
