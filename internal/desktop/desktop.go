// Package desktop integrates vimpclient with the player's desktop: the
// freedesktop.org entry and icon that register the vimp:// scheme on
// Linux, the Info.plist of the macOS app bundle, and the per-user scheme
// registration in the Windows registry; and the system browser and
// clipboard the sign-in uses.
package desktop

import (
	"fmt"
	"strings"
)

// Names shared by every platform's integration.
const (
	AppName  = "vimpclient"
	EntryID  = AppName + ".desktop"    // the desktop entry's file name
	IconName = AppName                 // the icon theme name of the icon
	BundleID = "org.vimpclient.client" // the macOS bundle identifier
	Scheme   = "vimp"                  // the join-link URL scheme
	MimeType = "x-scheme-handler/" + Scheme
)

// IconSizes are the sizes of the icon installed in the hicolor theme.
var IconSizes = []int{48, 128, 256}

// Entry is the desktop entry that starts exe (a path or a command name on
// PATH) for a vimp:// link, or with no link against the embedded host.
func Entry(exe string) string {
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Version=1.5\n" +
		"Name=vimpclient\n" +
		"GenericName=vimp game client\n" +
		"Comment=Play vimp games: the built-in match, a host, or a lobby room\n" +
		"Exec=" + escapeValue(quoteExecArg(exe)) + " open %u\n" +
		"Icon=" + IconName + "\n" +
		"Terminal=false\n" +
		"Categories=Game;ActionGame;\n" +
		"MimeType=" + MimeType + ";\n" +
		"StartupNotify=true\n"
}

// quoteExecArg quotes one argument of an Exec key when it needs it: the
// desktop entry spec reserves space, tab, quotes and the shell's special
// characters, and inside quotes escapes ", `, $ and \ with a backslash.
func quoteExecArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`%=") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '`', '$', '\\':
			b.WriteByte('\\')
		case '%':
			b.WriteByte('%') // %% is a literal percent
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// escapeValue escapes a string value of a desktop entry key (the spec's
// \s, \n, \t, \r and \\).
func escapeValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

// InfoPlist is the Info.plist of vimpclient.app for version (shown by the
// Finder) whose executable is Contents/MacOS/vimpclient and whose icon is
// Contents/Resources/vimpclient.icns; it declares the vimp URL scheme.
func InfoPlist(version string) []byte {
	short := NumericVersion(version)
	return []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleDevelopmentRegion</key>
	<string>en</string>
	<key>CFBundleDisplayName</key>
	<string>%[1]s</string>
	<key>CFBundleExecutable</key>
	<string>%[1]s</string>
	<key>CFBundleIconFile</key>
	<string>%[1]s.icns</string>
	<key>CFBundleIdentifier</key>
	<string>%[2]s</string>
	<key>CFBundleInfoDictionaryVersion</key>
	<string>6.0</string>
	<key>CFBundleName</key>
	<string>%[1]s</string>
	<key>CFBundlePackageType</key>
	<string>APPL</string>
	<key>CFBundleShortVersionString</key>
	<string>%[3]s</string>
	<key>CFBundleVersion</key>
	<string>%[4]s</string>
	<key>CFBundleURLTypes</key>
	<array>
		<dict>
			<key>CFBundleURLName</key>
			<string>%[2]s.join</string>
			<key>CFBundleURLSchemes</key>
			<array>
				<string>%[5]s</string>
			</array>
		</dict>
	</array>
	<key>LSApplicationCategoryType</key>
	<string>public.app-category.action-games</string>
	<key>LSMinimumSystemVersion</key>
	<string>11.0</string>
	<key>NSHighResolutionCapable</key>
	<true/>
</dict>
</plist>
`, AppName, BundleID, short, xmlEscape(version), Scheme))
}

// NumericVersion is the leading dotted numbers of a version ("v1.2.3-rc1"
// gives "1.2.3"; none gives "0.0.0"), the form CFBundleShortVersionString
// and Windows' file version want.
func NumericVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	end := 0
	for end < len(v) && (v[end] >= '0' && v[end] <= '9' || v[end] == '.') {
		end++
	}
	n := strings.Trim(v[:end], ".")
	if n == "" {
		return "0.0.0"
	}
	return n
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
}
