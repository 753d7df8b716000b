package dev.fakbattery.conformance.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every public type of the kit says how far an implementer may rely on it: {@code @API} with its status and since. */
@DisplayName("the kit's public types are marked with @API")
class ApiMarkingTests {

	@Test
	@DisplayName("every public top-level type under src/main carries @API(status, since)")
	void publicTypesMarked() throws Exception {
		List<Class<?>> types = mainTypes();

		assertThat(types).as("the kit's main classes").hasSizeGreaterThan(30);
		assertThat(unmarked(types)).isEmpty();
		assertThat(List.of(WireRule.class, FaultRule.class, CapturedWireRule.class, KitRule.class,
				Class.forName("dev.fakbattery.conformance.wire.WireVerification"),
				Class.forName("dev.fakbattery.conformance.fault.FaultVerification")))
				.as("the verification classes an implementer subclasses and the rule index are not internal")
				.allSatisfy(t -> assertThat(t.getAnnotation(API.class).status()).as(t.getName()).isEqualTo(API.Status.EXPERIMENTAL));
	}

	@Test
	@DisplayName("self-test: a public type without @API is named")
	void unmarkedTypeNamed() {
		assertThat(unmarked(List.of(String.class, WireRule.class))).containsExactly("java.lang.String");
	}

	/** The public types among {@code types} without {@code @API}. */
	static List<String> unmarked(List<Class<?>> types) {
		return types.stream()
				.filter(t -> Modifier.isPublic(t.getModifiers()) && !t.isAnnotationPresent(API.class))
				.map(Class::getName)
				.toList();
	}

	/** The top-level types compiled from src/main (the folder that holds {@link KitRule}). */
	private static List<Class<?>> mainTypes() throws IOException, URISyntaxException {
		Path classes = Path.of(KitRule.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		try (Stream<Path> files = Files.walk(classes)) {
			return files.map(classes::relativize)
					.map(Path::toString)
					.filter(f -> f.endsWith(".class") && !f.contains("$"))
					.map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
					.map(ApiMarkingTests::load)
					.toList();
		}
	}

	private static Class<?> load(String name) {
		try {
			return Class.forName(name, false, ApiMarkingTests.class.getClassLoader());
		}
		catch (ClassNotFoundException e) {
			throw new IllegalStateException(e);
		}
	}
}
