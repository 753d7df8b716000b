package dev.fakbattery.bench.llamacpp;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Writes a tiny llama GGUF from the command line:
 * {@code TinyLlamaMain VOCAB.gguf OUT.gguf [--template T.jinja] [--eos-token TOKEN] [--seed N] [--script TEXT]}.
 * Without {@code --script} the weights are random (seed 1 unless given); with it they are scripted
 * ({@link ScriptedWeights}).
 *
 * @since 0.2
 */
public final class TinyLlamaMain {

	private TinyLlamaMain() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length < 2 || args.length % 2 != 0) {
			System.err.println(
					"usage: TinyLlamaMain VOCAB.gguf OUT.gguf [--template T.jinja] [--eos-token TOKEN] [--seed N] [--script TEXT]");
			System.exit(2);
		}
		Optional<Path> template = Optional.empty();
		Optional<String> eos = Optional.empty();
		long seed = 1;
		Optional<String> script = Optional.empty();
		for (int i = 2; i < args.length; i += 2) {
			switch (args[i]) {
				case "--template" -> template = Optional.of(Path.of(args[i + 1]));
				case "--eos-token" -> eos = Optional.of(args[i + 1]);
				case "--seed" -> seed = Long.parseLong(args[i + 1]);
				case "--script" -> script = Optional.of(args[i + 1]);
				default -> throw new IllegalArgumentException("unknown option " + args[i]);
			}
		}
		TinyLlama.Spec spec = script.map(TinyLlama.Spec::scripted).orElse(TinyLlama.Spec.random(seed));
		Path out = TinyLlama.write(Path.of(args[0]), template, eos, spec, Path.of(args[1]));
		System.out.println("wrote " + out + ": " + spec);
	}
}
