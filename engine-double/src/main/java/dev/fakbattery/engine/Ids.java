package dev.fakbattery.engine;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random lower-case hex ids. Ids and timestamps are the only parts of the double's output not derived from the seed.
 *
 * @since 0.1
 */
final class Ids {

	private Ids() {
	}

	static String hex(int digits) {
		byte[] bytes = new byte[(digits + 1) / 2];
		ThreadLocalRandom.current().nextBytes(bytes);
		return HexFormat.of().formatHex(bytes).substring(0, digits);
	}
}
