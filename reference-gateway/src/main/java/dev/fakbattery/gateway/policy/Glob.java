package dev.fakbattery.gateway.policy;

/**
 * Tool-name globs: {@code *} matches any run of characters, {@code ?} one character. Matching
 * allocates nothing.
 */
final class Glob {

	private Glob() {
	}

	static boolean matches(String glob, String name) {
		int g = 0;
		int n = 0;
		int starG = -1;
		int starN = 0;
		while (n < name.length()) {
			if (g < glob.length() && (glob.charAt(g) == '?' || glob.charAt(g) == name.charAt(n))) {
				g++;
				n++;
			}
			else if (g < glob.length() && glob.charAt(g) == '*') {
				starG = g++;
				starN = n;
			}
			else if (starG >= 0) {
				g = starG + 1;
				n = ++starN;
			}
			else {
				return false;
			}
		}
		while (g < glob.length() && glob.charAt(g) == '*') {
			g++;
		}
		return g == glob.length();
	}
}
