#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make repo: a signed apt repository of every package make deb built
# (build/deb/<release>/: rpcrdma-cm-dkms, rpcrdma-cm-tools and the
# prebuilt rpcrdma-cm-modules-<kernel ABI>, with their sources), in
# build/repo/, one suite per release:
#
#   build/repo/dists/<release>/{Release,InRelease,Release.gpg}
#   build/repo/dists/<release>/main/binary-amd64/Packages{,.xz}
#   build/repo/dists/<release>/main/source/Sources{,.xz}
#   build/repo/pool/main/<release>/*.deb, *.dsc, *.tar.xz
#   build/repo/rpcrdma-cm-archive-keyring.gpg   the public key (signed-by)
#
# Indices by apt-ftparchive, Release signed with gpg:
#   REPO_KEY=<key id or fingerprint>  a secret key of your own keyring
#                  (GNUPGHOME, or ~/.gnupg) signs it;
#   otherwise a key made on the first run in build/repo-key/ (outside
#   build/repo/, which is what a mirror serves) signs it, the same key
#   on every later run.
#   REPO_RELEASES="bookworm trixie"  (default: those make deb built)
# The repository is made beside the old one and replaces it when
# complete. The end of the output is the sources.list line to use.

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
set -o pipefail

VER=$(changelog_version)
[ -n "$VER" ] || die "debian/changelog does not start with 'rpcrdma-cm (<version>) ...'"
REPO=$BUILD/repo
KEYDIR=$BUILD/repo-key
KEYRING=rpcrdma-cm-archive-keyring.gpg

if [ -n "${REPO_RELEASES:-}" ]; then
	RELEASES=$REPO_RELEASES
else
	RELEASES=
	for r in bookworm trixie; do
		ls "$BUILD/deb/$r/rpcrdma-cm-tools_${VER}_"*.deb >/dev/null 2>&1 && RELEASES+=" $r"
	done
fi
[ -n "${RELEASES// /}" ] ||
	die "no packages of rpcrdma-cm $VER in build/deb/<release>/: run make deb (DEB_RELEASE=bookworm or trixie) first"
for r in $RELEASES; do
	case $r in bookworm | trixie) ;; *) die "REPO_RELEASES: '$r' is not bookworm or trixie" ;; esac
	ls "$BUILD/deb/$r"/*_"$VER"*.deb >/dev/null 2>&1 ||
		die "no packages of rpcrdma-cm $VER in build/deb/$r/: make deb DEB_RELEASE=$r"
done
command -v apt-ftparchive >/dev/null || need_pkgs apt-utils
command -v gpg >/dev/null || need_pkgs gnupg

NEW=$BUILD/.repo.new.$$
OLD=$BUILD/.repo.old.$$
AGENT=
cleanup() {
	rm -rf "$NEW" "$OLD"
	# the gpg-agent this run started for its own key
	[ -z "$AGENT" ] || GNUPGHOME=$AGENT gpgconf --kill gpg-agent 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
exec 5>"$BUILD/.repo.lock"
flock -n 5 || { msg "another make repo is running; waiting"; flock 5; }

# The signing key: REPO_KEY in the caller's keyring, or ours.
if [ -n "${REPO_KEY:-}" ]; then
	gpg --batch --list-secret-keys "$REPO_KEY" >/dev/null 2>&1 ||
		die "REPO_KEY=$REPO_KEY: no such secret key in ${GNUPGHOME:-~/.gnupg} (gpg --list-secret-keys lists them; set GNUPGHOME to the keyring that has it)"
	KEY=$REPO_KEY
else
	export GNUPGHOME=$KEYDIR/gnupg
	AGENT=$GNUPGHOME
	if [ ! -s "$KEYDIR/fingerprint" ]; then
		msg "making the repository's signing key in ${KEYDIR#"$TOP"/}/ (once; REPO_KEY=<yours> signs with your own instead)"
		rm -rf "$KEYDIR"
		mkdir -p "$GNUPGHOME" && chmod 700 "$KEYDIR" "$GNUPGHOME" || die "cannot create $GNUPGHOME"
		gpg --batch --quiet --passphrase '' --quick-gen-key \
			"rpcrdma-cm local archive ($(hostname)) <root@$(hostname)>" ed25519 sign never ||
			{ rm -rf "$KEYDIR"; die "gpg could not make a key in $GNUPGHOME"; }
		gpg --batch --quiet --with-colons --list-secret-keys | awk -F: '$1 == "fpr" {print $10; exit}' \
			>"$KEYDIR/fingerprint.new" && mv "$KEYDIR/fingerprint.new" "$KEYDIR/fingerprint" ||
			{ rm -rf "$KEYDIR"; die "cannot read the new key's fingerprint"; }
	fi
	KEY=$(cat "$KEYDIR/fingerprint")
fi

mkdir -p "$NEW" || die "cannot create $NEW"
gpg --batch --export "$KEY" >"$NEW/$KEYRING" && [ -s "$NEW/$KEYRING" ] ||
	die "cannot export the public key of $KEY"
gpg --batch --armor --export "$KEY" >"$NEW/${KEYRING%.gpg}.asc" || die "cannot export $KEY"

# release R: the suite R, its indices and its signed Release files
release() {
	local r=$1 pool=pool/main/$1 d=dists/$1 t
	mkdir -p "$NEW/$pool" "$NEW/$d/main/binary-amd64" "$NEW/$d/main/source" || die "cannot create $NEW/$d"
	cp "$BUILD/deb/$r"/*_"$VER"*.deb "$BUILD/deb/$r"/*_"$VER"*.dsc "$BUILD/deb/$r"/*_"$VER"*.tar.xz \
		"$NEW/$pool/" || die "cannot copy build/deb/$r's packages into the repository"
	(
		cd "$NEW" || exit 1
		apt-ftparchive packages "$pool" >"$d/main/binary-amd64/Packages" &&
			apt-ftparchive sources "$pool" >"$d/main/source/Sources" 2>/dev/null &&
			xz -k "$d/main/binary-amd64/Packages" "$d/main/source/Sources" &&
			apt-ftparchive -o APT::FTPArchive::Release::Origin=rpcrdma-cm \
				-o APT::FTPArchive::Release::Label=rpcrdma-cm \
				-o "APT::FTPArchive::Release::Suite=$r" \
				-o "APT::FTPArchive::Release::Codename=$r" \
				-o APT::FTPArchive::Release::Architectures=amd64 \
				-o APT::FTPArchive::Release::Components=main \
				-o "APT::FTPArchive::Release::Description=rpcrdma-cm $VER for Debian $r (make repo)" \
				release "$d" >"$d/Release.new" && mv "$d/Release.new" "$d/Release"
	) || die "apt-ftparchive failed on $pool"
	t=$NEW/$d
	gpg --batch --yes --local-user "$KEY" --clearsign -o "$t/InRelease" "$t/Release" &&
		gpg --batch --yes --local-user "$KEY" --armor --detach-sign -o "$t/Release.gpg" "$t/Release" ||
		die "gpg could not sign $d/Release with $KEY"
	# what apt will check: the signature against the exported key alone
	gpgv --keyring "$NEW/$KEYRING" "$t/InRelease" >/dev/null 2>&1 ||
		die "$d/InRelease does not verify against $KEYRING"
	msg "  $r: $(grep -c '^Package: ' "$t/main/binary-amd64/Packages") packages: $(sed -n 's/^Package: //p' "$t/main/binary-amd64/Packages" | xargs)"
}

msg "apt repository of rpcrdma-cm $VER in ${REPO#"$TOP"/}/, signed by $KEY"
for r in $RELEASES; do
	release "$r"
done
if [ -e "$REPO" ]; then
	mv "$REPO" "$OLD" || die "cannot move $REPO aside"
fi
mv "$NEW" "$REPO" || die "cannot move $NEW to $REPO"
rm -rf "$OLD"

cat <<EOF
Repository: $REPO (serve this directory, e.g. as http://<your mirror>/rpcrdma-cm/)
Public key: $REPO/$KEYRING (on each host: /usr/share/keyrings/$KEYRING)
$([ -z "${REPO_KEY:-}" ] && echo "Signing key: $KEYDIR/gnupg (private: keep it, do not serve it)")
sources.list line, per release (file: here, or the mirror's URL):
EOF
for r in $RELEASES; do
	echo "  deb [signed-by=/usr/share/keyrings/$KEYRING] file:$REPO $r main"
done
