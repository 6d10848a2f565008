#!/usr/bin/env bash
# Set up a development environment from nothing: a virtual environment in .venv with samepage,
# the learner and its Ray cluster extra, the DuckDB and Spark engines, the test tools and the
# web applications the learner is tested on installed, Trac in a virtual environment of its
# own (.venv-trac), MediaWiki and PHP from Debian, a Chromium for the learner to drive and a
# Java runtime for Spark.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
TRAC_VENV=${TRAC_VENV:-.venv-trac}

if [ ! -x "$VENV/bin/python" ]; then
    echo "setup: creating $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi

# Install Debian packages, as root only; the package lists are refreshed once per run.
apt_updated=
apt_install() {
    if [ -z "$apt_updated" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

stamp="$VENV/.samepage-installed"
extras="learner,cluster,duckdb,spark,scrapy,warc,test,apps,dev"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "$(cat "$stamp")" != "$extras" ]; then
    echo "setup: installing samepage[$extras] into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -e ".[$extras]"
    echo "$extras" > "$stamp"
fi

# Trac, for the tests on real applications, apart: Datasette's python-multipart installs a
# "multipart" module that shadows the one Trac reads forms with.
if ! "$TRAC_VENV/bin/python" -c "import trac, multipart" >/dev/null 2>&1; then
    echo "setup: installing Trac 1.6 into $TRAC_VENV" >&2
    "$PYTHON" -m venv "$TRAC_VENV"
    "$TRAC_VENV/bin/python" -m pip install --quiet "Trac>=1.6,<1.7" "multipart>=1"
fi

# MediaWiki 1.39, for the tests on real applications: Debian's package, run by PHP's own
# server with an SQLite database (tests/apps/mediawiki_app.py). Debian's package depends on
# a web server (apache2); the tests never start it.
if [ ! -f /usr/share/mediawiki/maintenance/install.php ] || ! command -v php >/dev/null 2>&1 \
    || ! php -m 2>/dev/null | grep -qx pdo_sqlite; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing Debian's mediawiki, php-cli and php-sqlite3 packages" >&2
        apt_install --no-install-recommends mediawiki php-cli php-sqlite3
    else
        echo "setup: no MediaWiki found; the MediaWiki tests need:" \
            "sudo apt-get install -y --no-install-recommends mediawiki php-cli php-sqlite3" >&2
    fi
fi

# A browser. The learner prefers Debian's Chromium headless shell (it renders in about half
# the time of the full chromium, with the same outcomes: benchmarks/README.md): install it
# when we are allowed to. Otherwise any Chromium the learner finds will do; on a Debian or
# Ubuntu machine without one, install Debian's chromium package.
if ! command -v chromium-headless-shell >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian's chromium-headless-shell package" >&2
    apt_install chromium-headless-shell \
        || echo "setup: no chromium-headless-shell package here; using another Chromium" >&2
fi
if ! "$VENV/bin/python" -m learner.render.browser >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing Debian's chromium package" >&2
        apt_install chromium
    else
        echo "setup: no Chromium found; install one with: sudo apt-get install -y chromium" >&2
        echo "       (or: $VENV/bin/python -m playwright install chromium), or set SAMEPAGE_BROWSER" >&2
    fi
fi

# Spark runs on a JVM: Java 17 or newer. On a Debian or Ubuntu machine without one, install
# Debian's default headless runtime when we are allowed to.
if ! command -v java >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing Debian's default-jre-headless package" >&2
        apt_install default-jre-headless
    else
        echo "setup: no Java found; Spark needs one: sudo apt-get install -y default-jre-headless" >&2
    fi
fi
