#!/usr/bin/perl
# Every file a comment names exists (STYLE: a comment that names a file
# names one that exists). Scans the comments of src/, tracepoints/,
# analysis/, tools/ and tests/ (C: /* */ and //; shell, CMake: #) for
# names with a file extension. A name with a slash must be a file or
# directory of the repository (from the top, from the commenting file's
# folder, or under src/, tests/, analysis/, tools/, tracepoints/); a bare
# name must be a file of the repository, of the build's generated
# headers (GEN_DIR...), or a system header under /usr/include.
# usage: comment-paths.pl SOURCE_DIR [GEN_DIR...]
use strict;
use warnings;
use File::Find;
use File::Basename;

my ($root, @gen) = @ARGV;
die "usage: $0 SOURCE_DIR [GEN_DIR...]\n" unless $root && -d $root;
chdir $root or die "$root: $!\n";

# Names that are not ours by design: other projects' files. A bare name
# followed by :LINE ("pool.c:41") is a call site of a traced program, the
# shape reports print, not a file of ours.
my %foreign = map { $_ => 1 } (
	'pan.c',      # the verifier spin generates from a model
);
my @tops = qw(src tracepoints analysis tools tests);
my (%base, @files);
find({ no_chdir => 1, wanted => sub {
	if (-d $_) {
		# the repository only: not .git, nor build folders inside it
		$File::Find::prune = 1 if m{^\./(\.git|build[^/]*)$};
		return;
	}
	(my $f = $File::Find::name) =~ s{^\./}{};
	$base{basename($f)} = 1;
	push @files, $f if grep { index($f, "$_/") == 0 } @tops;
} }, '.');
for my $d (@gen) {
	next unless -d $d;
	find(sub { $base{$_} = 1 if -f $_ }, $d);
}
my %sys;
find(sub { $sys{$_} = 1 if /\.h$/ }, '/usr/include');

my $ext = qr/(?:c|h|def|md|sh|txt|in|cmake|pl|py|1|json|csv|html)/;
my $name = qr~(?<![\w./<"'}\$-])((?:\.{0,2}/)?(?:[\w.+-]+/)*[\w+-]*[A-Za-z][\w+-]*(?:\.[A-Za-z]\w*)*\.$ext)(?![\w/])~;
my $bad = 0;
for my $f (sort @files) {
	next unless $f =~ /\.(c|h|def|in|sh|cmake|pl)$/ || basename($f) eq 'CMakeLists.txt';
	open(my $fh, '<', $f) or next;
	local $/;
	my $text = <$fh>;
	close $fh;
	my @comments;
	if ($f =~ /\.(c|h|def|in)$/) {
		while ($text =~ m{(/\*.*?\*/|//[^\n]*)}gs) {
			push @comments, [substr($text, 0, $-[0]) =~ tr/\n//, $1];
		}
	} else {
		my $n = 0;
		for my $l (split /\n/, $text) {
			push @comments, [$n, $1] if $l =~ /(?:^|\s)#(?!!)(.*)$/;
			$n++;
		}
	}
	for my $c (@comments) {
		my ($line, $body) = @$c;
		while ($body =~ /$name/g) {
			my ($p, $pos) = ($1, $-[1]);
			next if $foreign{$p};
			next if $p !~ m{/} && substr($body, $pos + length($p)) =~ /^:\d/;
			my $ok;
			if ($p =~ m{/}) {
				my $dir = dirname($f);
				for my $cand ($p, "$dir/$p", map { "$_/$p" } @tops) {
					$ok = 1, last if -e $cand;
				}
			} else {
				$ok = $base{$p} || $sys{$p};
			}
			next if $ok;
			my $at = $line + 1 + (substr($body, 0, $pos) =~ tr/\n//);
			printf STDERR "%s:%d: names %s, which does not exist\n", $f, $at, $p;
			$bad = 1;
		}
	}
}
print "comment-paths: every file named in a comment exists\n" unless $bad;
exit $bad;
