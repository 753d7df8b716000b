package dev.fakbattery.engine;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import dev.fakbattery.wire.EngineDoubleMarker;

/**
 * The double's ids: lower-case hex of the engine's length, random but for the last
 * {@value EngineDoubleMarker#ID_MARK_DIGITS} digits, which are the double's id mark ({@link EngineDoubleMarker#markedId}),
 * so an answer's id says it came from the double even where nothing else of it is relayed. Ids and timestamps are the
 * only parts of the double's output not derived from the seed.
 *
 * @since 0.1
 */
final class Ids {

	private Ids() {
	}

	/** {@code digits} (even, 16 or more) lower-case hex digits: random, then the mark of the random ones. */
	static String marked(int digits) {
		byte[] bytes = new byte[(digits - EngineDoubleMarker.ID_MARK_DIGITS) / 2];
		ThreadLocalRandom.current().nextBytes(bytes);
		return EngineDoubleMarker.markedId(HexFormat.of().formatHex(bytes));
	}
}
