"""Golden log cases from the JVM and Ruby: JUnit 5's console launcher, JUnit 4's runner, RSpec.

Each case writes a small project with many passing tests and one injected failure, runs the real
tool on it and returns what it printed (see `make_log_goldens.py`). `SIGNALS` says, per case, which
lines carry the failure's reason. The JUnit jars are Debian's (packages junit4 and junit5), so no
build tool has to fetch anything; RSpec is Debian's ruby-rspec.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scratch import run, write

JUNIT5_JAR = "/usr/share/java/junit-platform-console-standalone.jar"
JUNIT5_SHIPPING = {
    "src/com/example/shipping/Rates.java": """
        package com.example.shipping;

        /** Parcel prices in cents by weight and zone, and the tracking numbers on their labels. */
        public final class Rates {
            private Rates() {}

            public static int price(int grams, int zone) {
                int steps = (grams + 499) / 500;
                return 450 + steps * (120 + 35 * zone);
            }

            public static String tracking(String account, int serial) {
                String body = account + String.format("%07d", serial);
                int sum = 0;
                for (int i = 0; i < body.length(); i++) {
                    int v = Character.isDigit(body.charAt(i)) ? body.charAt(i) - '0' : (body.charAt(i) - 'A' + 2) % 10;
                    sum += i % 2 == 0 ? v : 2 * v;
                }
                return "1Z" + body + (10 - sum % 10) % 10;
            }
        }
    """,
    "src/com/example/shipping/RatesTest.java": """
        package com.example.shipping;

        import static org.junit.jupiter.api.Assertions.assertEquals;

        import java.util.stream.IntStream;
        import java.util.stream.Stream;
        import org.junit.jupiter.api.DisplayName;
        import org.junit.jupiter.api.Nested;
        import org.junit.jupiter.api.Test;
        import org.junit.jupiter.params.ParameterizedTest;
        import org.junit.jupiter.params.provider.Arguments;
        import org.junit.jupiter.params.provider.MethodSource;

        class RatesTest {
            static Stream<Arguments> parcels() {
                return IntStream.range(0, 320).mapToObj(i -> {
                    int grams = 250 * (i % 40 + 1), zone = i / 40 + 1;
                    return Arguments.of(grams, zone, 450 + ((grams + 499) / 500) * (120 + 35 * zone));
                });
            }

            @ParameterizedTest(name = "{0} g to zone {1} costs {2} cents")
            @MethodSource("parcels")
            void priceByWeightAndZone(int grams, int zone, int cents) {
                assertEquals(cents, Rates.price(grams, zone));
            }

            @Nested
            @DisplayName("tracking numbers")
            class Tracking {
                static Stream<Arguments> serials() {
                    return IntStream.range(1, 80).mapToObj(i -> Arguments.of(i * 37, Rates.tracking("999AA1", i * 37)));
                }

                @ParameterizedTest(name = "serial {0} is {1}")
                @MethodSource("serials")
                void isStableForASerial(int serial, String expected) {
                    assertEquals(expected, Rates.tracking("999AA1", serial));
                }

                @Test
                @DisplayName("matches the number printed on the carrier's sample label")
                void matchesTheSampleLabel() {
                    assertEquals("1Z999AA101234567", Rates.tracking("999AA1", 123456));
                }
            }
        }
    """,
}


def junit5_console_tree_one_failure_among_400(root: Path) -> bytes:
    write(root, JUNIT5_SHIPPING)
    sources = [str(p.relative_to(root)) for p in sorted(root.rglob("*.java"))]
    compiled = run(["javac", "-d", "classes", "-cp", JUNIT5_JAR, *sources], root)
    launch = ["java", "-jar", JUNIT5_JAR, "--class-path", "classes", "--scan-class-path", "--details=tree"]
    return compiled + run([*launch, "--disable-ansi-colors"], root)


JUNIT4_CLASSPATH = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
JUNIT4_LEDGER = {
    "src/com/example/ledger/Ledger.java": """
        package com.example.ledger;

        import java.util.LinkedHashMap;
        import java.util.Map;
        import java.util.logging.Logger;

        /** Accounts with balances in cents; every posting is logged, a closed account refuses them. */
        public final class Ledger {
            private static final Logger LOG = Logger.getLogger(Ledger.class.getName());
            private final Map<Integer, Long> balances = new LinkedHashMap<>();
            private final Map<Integer, Boolean> closed = new LinkedHashMap<>();

            public long post(int account, long cents) {
                if (closed.getOrDefault(account, false)) {
                    throw new IllegalStateException("account " + account + " is closed");
                }
                long balance = balances.merge(account, cents, Long::sum);
                LOG.info(String.format("posted %d to account %d (balance %d)", cents, account, balance));
                return balance;
            }

            public void close(int account) {
                closed.put(account, true);
                LOG.info("closed account " + account);
            }

            public long statement(int account, long interestCents) {
                try {
                    return post(account, interestCents);
                } catch (IllegalStateException e) {
                    throw new LedgerException("could not add interest to the statement of account " + account, e);
                }
            }
        }
    """,
    "src/com/example/ledger/LedgerException.java": """
        package com.example.ledger;

        public class LedgerException extends RuntimeException {
            public LedgerException(String message, Throwable cause) {
                super(message, cause);
            }
        }
    """,
    "src/com/example/ledger/PostingTest.java": """
        package com.example.ledger;

        import static org.junit.Assert.assertEquals;

        import java.util.ArrayList;
        import java.util.List;
        import org.junit.Test;
        import org.junit.runner.RunWith;
        import org.junit.runners.Parameterized;
        import org.junit.runners.Parameterized.Parameters;

        @RunWith(Parameterized.class)
        public class PostingTest {
            @Parameters(name = "{index}: account {0} gets {1} postings")
            public static List<Object[]> accounts() {
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < 297; i++) {
                    rows.add(new Object[] {i % 12 + 1, i % 3 + 1});
                }
                return rows;
            }

            private final int account;
            private final int postings;

            public PostingTest(int account, int postings) {
                this.account = account;
                this.postings = postings;
            }

            @Test
            public void balanceIsTheSumOfPostings() {
                Ledger ledger = new Ledger();
                long last = 0;
                for (int i = 1; i <= postings; i++) {
                    last = ledger.post(account, 250L * i);
                }
                assertEquals(125L * postings * (postings + 1), last);
            }
        }
    """,
    "src/com/example/ledger/StatementTest.java": """
        package com.example.ledger;

        import static org.junit.Assert.assertEquals;

        import org.junit.Test;

        public class StatementTest {
            @Test
            public void interestIsPostedToAnOpenAccount() {
                Ledger ledger = new Ledger();
                ledger.post(3, 10_000);
                assertEquals(10_042, ledger.statement(3, 42));
            }

            @Test
            public void closedAccountGetsNoInterest() {
                Ledger ledger = new Ledger();
                ledger.post(7, 5_000);
                ledger.close(7);
                assertEquals(5_000, ledger.statement(7, 0));
            }

            @Test
            public void emptyAccountStartsAtZero() {
                assertEquals(0, new Ledger().post(9, 0));
            }
        }
    """,
}


def junit4_logging_noise_one_error_with_cause_among_300(root: Path) -> bytes:
    write(root, JUNIT4_LEDGER)
    sources = [str(p.relative_to(root)) for p in sorted(root.rglob("*.java"))]
    compiled = run(["javac", "-d", "classes", "-cp", JUNIT4_CLASSPATH, *sources], root)
    runner = ["java", "-cp", f"classes:{JUNIT4_CLASSPATH}", "org.junit.runner.JUnitCore"]
    return compiled + run([*runner, "com.example.ledger.PostingTest", "com.example.ledger.StatementTest"], root)


RSPEC_SEMVER = {
    "lib/semver.rb": """
        # Parses and orders semantic versions like 1.4.2 and 2.0.0-rc.1.
        class Version
          include Comparable
          attr_reader :major, :minor, :patch, :pre

          def self.parse(text)
            core, pre = text.split("-", 2)
            major, minor, patch = core.split(".").map { |part| Integer(part, 10) }
            new(major, minor, patch, pre)
          end

          def initialize(major, minor, patch, pre = nil)
            @major, @minor, @patch, @pre = major, minor, patch, pre
          end

          def <=>(other)
            [major, minor, patch] <=> [other.major, other.minor, other.patch]
          end

          def to_s
            [major, minor, patch].join(".") + (pre ? "-#{pre}" : "")
          end
        end
    """,
    "spec/version_spec.rb": """
        require_relative "../lib/semver"

        RSpec.describe Version do
          describe ".parse" do
            (0...16).each do |major|
              context "with major version #{major}" do
                (0...30).each do |minor|
                  patch = minor * 3 % 7
                  it "reads #{major}.#{minor}.#{patch} as major #{major}, minor #{minor}, patch #{patch}" do
                    v = Version.parse("#{major}.#{minor}.#{patch}")
                    expect([v.major, v.minor, v.patch]).to eq([major, minor, patch])
                  end
                end
              end
            end

            it "keeps a pre-release tag" do
              expect(Version.parse("2.0.0-rc.1").pre).to eq("rc.1")
            end

            it "rejects a version with a letter in it" do
              expect { Version.parse("1.x.3") }.to raise_error(ArgumentError)
            end

            xit "parses build metadata after a plus sign"
          end

          describe "#<=>" do
            (1..256).each do |n|
              it "orders #{n / 16}.#{n % 16}.0 before #{n / 16}.#{n % 16}.1" do
                expect(Version.parse("#{n / 16}.#{n % 16}.0")).to be < Version.parse("#{n / 16}.#{n % 16}.1")
              end
            end

            it "orders a pre-release before its release" do
              expect(Version.parse("2.0.0-rc.1")).to be < Version.parse("2.0.0")
            end

            xit "orders pre-release identifiers numerically"
          end
        end
    """,
}


def rspec_documentation_one_failure_among_740(root: Path) -> bytes:
    write(root, RSPEC_SEMVER)
    return run(["rspec", "--format", "documentation", "--no-color"], root)


CASES: tuple[Callable[[Path], bytes], ...] = (
    junit5_console_tree_one_failure_among_400,
    junit4_logging_noise_one_error_with_cause_among_300,
    rspec_documentation_one_failure_among_740,
)

#: case -> patterns of the lines that say why it failed, most telling first (see `make_log_goldens.py`).
SIGNALS: dict[str, tuple[str, ...]] = {
    "junit5_console_tree_one_failure_among_400": (
        r"=> org\.opentest4j\.AssertionFailedError: expected: <1Z999AA101234567> but was: <1Z999AA101234566>",
        r"matches the number printed on the carrier's sample label ✘",
        r"RatesTest\$Tracking\.matchesTheSampleLabel\(RatesTest\.java:\d+\)",
        r"\[ +1 tests failed +\]",
    ),
    "junit4_logging_noise_one_error_with_cause_among_300": (
        r"com\.example\.ledger\.LedgerException: could not add interest to the statement of account 7",
        r"Caused by: java\.lang\.IllegalStateException: account 7 is closed",
        r"1\) closedAccountGetsNoInterest\(com\.example\.ledger\.StatementTest\)",
        r"at com\.example\.ledger\.StatementTest\.closedAccountGetsNoInterest\(StatementTest\.java:\d+\)",
        r"Tests run: 300, +Failures: 1",
    ),
    "rspec_documentation_one_failure_among_740": (
        r"expected: < #<Version:",
        r"got: +#<Version:",
        r"Failure/Error: expect\(Version\.parse\(\"2\.0\.0-rc\.1\"\)\)\.to be < Version\.parse\(\"2\.0\.0\"\)",
        r"rspec \./spec/version_spec\.rb:\d+ # Version#<=> orders a pre-release before its release",
        r"741 examples, 1 failure, 2 pending",
    ),
}
