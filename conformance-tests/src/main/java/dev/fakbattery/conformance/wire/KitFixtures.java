package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.apiguardian.api.API;

/**
 * The recorded wire the kit replays: the repository's {@code fixtures/wire} (its vLLM, SGLang and kit folders), packed
 * into the kit's jar under {@value #ROOT}, so the kit finds it wherever it runs.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class KitFixtures {

	/** Where the fixtures lie on the class path: {@value}. */
	static final String ROOT = "/dev/fakbattery/conformance/fixtures/wire/";

	private KitFixtures() {
	}

	/** The fixture {@code relative} to fixtures/wire, e.g. {@code vllm/chat-text.sse}. */
	public static String read(String relative) {
		try (InputStream in = KitFixtures.class.getResourceAsStream(ROOT + relative)) {
			if (in == null) {
				throw new IllegalStateException("fixture fixtures/wire/" + relative + " is not in the kit's jar (" + ROOT + relative
						+ "); rebuild conformance-tests");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException("fixture fixtures/wire/" + relative + " unreadable", e);
		}
	}

	static boolean exists(String relative) {
		return KitFixtures.class.getResource(ROOT + relative) != null;
	}
}
