package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

@DisplayName("ConfigKeys: every key once, its default per profile, the pom agreeing, a misspelled -D named")
class ConfigKeysTests {

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@Test
	@DisplayName("every name of HarnessConstants is a key of the registry, and no key is there twice")
	void registryCoversEveryName() throws IllegalAccessException {
		List<String> names = new ArrayList<>();
		for (Field field : HarnessConstants.class.getFields()) {
			if (Modifier.isStatic(field.getModifiers()) && !field.getName().equals("DETERMINISM_ENV")) {
				names.add((String) field.get(null));
			}
		}
		List<String> keys = ConfigKeys.all().stream().map(ConfigKey::name).toList();
		assertThat(keys).doesNotHaveDuplicates().containsAll(names);
		assertThat(ConfigKeys.all()).allSatisfy(key -> assertThat(key.doc()).as(key.name() + "'s doc").isNotBlank());
	}

	@Test
	@DisplayName("get: the value, else the running profile's default, else the key's")
	void getTakesTheProfileDefault() {
		assertThat(config(Map.of()).get(ConfigKeys.TAX_COUNT)).isEqualTo(6);
		assertThat(config(Map.of("harness.profile", "battery")).get(ConfigKeys.TAX_COUNT)).isEqualTo(8);
		assertThat(config(Map.of("harness.profile", "llamacpp")).get(ConfigKeys.TAX_COUNT)).isEqualTo(512);
		assertThat(config(Map.of("harness.profile", "llamacpp", "tax.count", "9")).get(ConfigKeys.TAX_COUNT)).isEqualTo(9);
		assertThat(config(Map.of("harness.profile", "gpu")).get(ConfigKeys.SWEEP_CONCURRENCY)).containsExactly(1, 8, 64, 128);
		assertThat(config(Map.of("harness.profile", "gpu")).find(ConfigKeys.SWEEP_REQUESTS)).isEmpty();
		assertThat(config(Map.of("harness.profile", "llamacpp")).find(ConfigKeys.SWEEP_REQUESTS)).contains(512);
		assertThat(config(Map.of("slo.ttft.ms", "250")).get(ConfigKeys.SLO_TTFT_MS)).isEqualTo(250.0);
		assertThatThrownBy(() -> config(Map.of()).get(ConfigKeys.MODEL)).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("model has no default");
	}

	@Test
	@DisplayName("a bad value names the key, the value and a value that works")
	void badValueNamesItself() {
		assertThatThrownBy(() -> config(Map.of("tax.count", "eight")).get(ConfigKeys.TAX_COUNT))
				.isInstanceOf(ConfigurationException.class)
				.hasMessage(
						"Unable to parse tax.count value [eight]: expected a positive integer. Fix: pass -Dtax.count=8 or remove it to use the default.");
		assertThatThrownBy(() -> config(Map.of("range.ratio", "1")).get(ConfigKeys.RANGE_RATIO))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("expected a number within [0.0, 0.999]");
		assertThatThrownBy(() -> config(Map.of("rate.sweep", "1,-2")).get(ConfigKeys.RATE_SWEEP))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("-Drate.sweep=1.0,2.0,4.0,8.0,16.0,32.0,64.0");
		assertThatThrownBy(() -> config(Map.of("base.url", "http://h:8000")).find(ConfigKeys.BASE_URL))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("ending in /v1");
	}

	@Test
	@DisplayName("a name one edit from a key (a swap, a dropped or added dot, a letter) is named with the key it means")
	void didYouMean() {
		assertThat(ConfigKeys.misspelled(List.of("tax.coutn", "taxcount", "tax..count", "sweep.concurency", "tax.counts")))
				.containsEntry("tax.coutn", "tax.count")
				.containsEntry("taxcount", "tax.count")
				.containsEntry("tax..count", "tax.count")
				.containsEntry("sweep.concurency", "sweep.concurrency")
				.containsEntry("tax.counts", "tax.count");
		assertThatThrownBy(() -> ConfigKeys.checkSpelling(List.of("java.home", "tax.coutn")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessage(
						"Unknown configuration parameter tax.coutn: did you mean tax.count? Fix: pass -Dtax.count=... instead of -Dtax.coutn.");
	}

	@Test
	@DisplayName("a command-line tool's configuration (system properties) fails on -Dtax.coutn=3, naming tax.count")
	void commandLineConfigChecksSpelling() {
		System.setProperty("tax.coutn", "3");
		try {
			assertThatThrownBy(HarnessConfig::fromSystemProperties).isInstanceOf(ConfigurationException.class)
					.hasMessageContaining("did you mean tax.count?");
		}
		finally {
			System.clearProperty("tax.coutn");
		}
		assertThat(HarnessConfig.fromSystemProperties().find(ConfigKeys.MODEL)).isEqualTo(Optional.ofNullable(System.getProperty("model")));
	}

	@Test
	@DisplayName("a known key, a name far from every key and the JVM's and Maven's names pass")
	void farNamesPass() {
		ConfigKeys.checkSpelling(List.of("tax.count", "tax.cnt.x", "frobnicate", "java.version", "maven.repo.local",
				"surefire.real.class.path", "user.dir", "allure.results.directory"));
		assertThat(ConfigKeys.misspelled(List.of("tax.cout.x", "sweep"))).isEmpty();
	}

	@Test
	@DisplayName("the root pom's profiles set no key to another value than the registry's default for that profile")
	void pomAgreesWithTheRegistry() throws Exception {
		Map<String, Map<String, String>> pom = pomProperties();
		assertThat(pom).containsKeys("", "battery", "gpu", "llamacpp", "gate");
		List<String> disagreements = new ArrayList<>();
		for (ConfigKey<?> key : ConfigKeys.all()) {
			// allow.pending fails closed in code; the build passes it per profile, as its doc says
			if (key == ConfigKeys.ALLOW_PENDING) {
				continue;
			}
			for (Map.Entry<String, Map<String, String>> profile : pom.entrySet()) {
				String value = profile.getValue().get(key.name());
				if (value == null || value.contains("${")) {
					continue;
				}
				Optional<?> expected;
				if (profile.getKey().isEmpty()) {
					expected = key.defaultValue();
				}
				else if (key == ConfigKeys.PROFILE) {
					expected = Optional.of(profile.getKey());
				}
				else {
					// a profile may pass a value of its own (its engine, its model); a default it changes must agree
					Profile parsed = Profile.parse(profile.getKey());
					expected = Optional.ofNullable(key.profileDefaults().get(parsed));
				}
				if (expected.isPresent() && !ConfigKey.format(expected.get()).equals(value)) {
					disagreements.add(key.name() + " in pom profile [" + profile.getKey() + "]: pom " + value + ", registry "
							+ ConfigKey.format(expected.get()));
				}
			}
		}
		assertThat(disagreements).as("drop the value from the pom, or change the registry").isEmpty();
		assertThat(pom.get("llamacpp")).as("-Pllamacpp's defaults live in the registry")
				.doesNotContainKeys("tax.count",
						"sweep.requests", "sweep.concurrency", "engine.cmd.timeout.sec");
	}

	/** The properties of the root pom ("") and of each profile named like a {@link Profile}. */
	static Map<String, Map<String, String>> pomProperties() throws Exception {
		Path pom = RootDir.find().resolve("pom.xml");
		Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
		Map<String, Map<String, String>> out = new LinkedHashMap<>();
		Element project = doc.getDocumentElement();
		for (Element child : children(project, "properties")) {
			out.put("", properties(child));
		}
		for (Element profiles : children(project, "profiles")) {
			for (Element profile : children(profiles, "profile")) {
				String id = children(profile, "id").get(0).getTextContent().strip();
				for (Element properties : children(profile, "properties")) {
					out.put(id, properties(properties));
				}
			}
		}
		out.keySet().removeIf(id -> !id.isEmpty() && !Profile.ids().contains(id));
		return out;
	}

	private static Map<String, String> properties(Element element) {
		Map<String, String> values = new LinkedHashMap<>();
		NodeList nodes = element.getChildNodes();
		for (int i = 0; i < nodes.getLength(); i++) {
			if (nodes.item(i) instanceof Element property) {
				values.put(property.getTagName(), property.getTextContent().strip());
			}
		}
		return values;
	}

	private static List<Element> children(Element parent, String tag) {
		List<Element> found = new ArrayList<>();
		NodeList nodes = parent.getChildNodes();
		for (int i = 0; i < nodes.getLength(); i++) {
			Node node = nodes.item(i);
			if (node instanceof Element element && element.getTagName().equals(tag)) {
				found.add(element);
			}
		}
		return found;
	}

	/** The repository root: {@code harness.root.dir} when the build passes it, else the nearest folder with docs/. */
	static final class RootDir {

		static Path find() {
			String passed = System.getProperty(HarnessConstants.ROOT_DIR);
			if (passed != null && !passed.isBlank()) {
				return Path.of(passed);
			}
			Path dir = Path.of("").toAbsolutePath();
			while (dir != null && !Files.isDirectory(dir.resolve("docs"))) {
				dir = dir.getParent();
			}
			if (dir == null) {
				throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
			}
			return dir;
		}
	}
}
