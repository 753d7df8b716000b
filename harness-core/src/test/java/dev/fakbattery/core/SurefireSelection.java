package dev.fakbattery.core;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The test classes surefire runs in a module, as JUnit discovers them: the top-level classes of its test-classes
 * folder (surefire leaves nested ones out) whose names its default includes take ({@code Test*}, {@code *Test},
 * {@code *Tests}, {@code *TestCase}), with or without a tag expression such as the measuring profiles'
 * {@code harness.groups}.
 */
public final class SurefireSelection {

	private static final Pattern INCLUDED = Pattern.compile("(Test.*|.*Tests?|.*TestCase)");

	private SurefireSelection() {
	}

	/** The test classes of the folder {@code anyTestClass} was loaded from, by name. */
	public static Set<String> all(Class<?> anyTestClass) {
		return discover(request().selectors(selectors(anyTestClass)));
	}

	/** Those of {@link #all} JUnit keeps under the tag expression {@code tags} (surefire's {@code groups}). */
	public static Set<String> tagged(Class<?> anyTestClass, String tags) {
		return discover(request().selectors(selectors(anyTestClass)).filters(TagFilter.includeTags(tags)));
	}

	private static Set<String> discover(LauncherDiscoveryRequestBuilder builder) {
		TestPlan plan = LauncherFactory.create().discover(builder.build());
		Set<String> classes = new TreeSet<>();
		for (TestIdentifier engine : plan.getRoots()) {
			for (TestIdentifier child : plan.getChildren(engine)) {
				child.getSource()
						.filter(ClassSource.class::isInstance)
						.map(source -> ((ClassSource) source).getClassName())
						.ifPresent(classes::add);
			}
		}
		return classes;
	}

	private static List<ClassSelector> selectors(Class<?> anyTestClass) {
		Path root;
		try {
			root = Path.of(anyTestClass.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException e) {
			throw new IllegalStateException(e);
		}
		try (Stream<Path> files = Files.walk(root)) {
			return files.map(f -> root.relativize(f).toString())
					.filter(f -> f.endsWith(".class") && !f.contains("$"))
					.map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
					.filter(name -> INCLUDED.matcher(name.substring(name.lastIndexOf('.') + 1)).matches())
					.map(name -> selectClass(name))
					.toList();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
