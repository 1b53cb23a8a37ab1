# Put a cover letter's own text into git format-patch's template of it:
#   awk -f cover-text.awk OLD_COVER TEMPLATE
# From OLD_COVER: its Subject: header (with continuation lines) and its
# body up to the shortlog ("Name (N):").  From TEMPLATE: every other
# header (To:, Cc:, Message-Id:, ...), and the shortlog and diffstat.
FNR == NR {
	if (/^Subject:/) { part = "subject" }
	else if (part == "subject" && !/^[ \t]/) { part = /^$/ ? "body" : "" }
	if (part == "body" && /^[^ ].* \([0-9]+\):$/) { part = "done" }
	if (part == "subject") { subject = subject $0 "\n" }
	else if (part == "body" && !(body == "" && /^$/)) { body = body $0 "\n" }
	next
}
/^Subject:/ { printf "%s", subject; state = "subject"; next }
state == "subject" && /^[ \t]/ { next }
state == "subject" { state = "headers" }
state == "headers" && /^$/ { print ""; printf "%s", body; state = "skip"; next }
state == "skip" && /^[^ ].* \([0-9]+\):$/ { state = "" }
state != "skip" { print }
