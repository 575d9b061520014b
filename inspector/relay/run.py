"""The relay started as a file, the way `install` writes it into an agent's hook settings:
`python -I -S .../inspector/relay/run.py relay --host claude ...`. An agent starts one relay per
hook event, so this skips what the `hook-inspector` console script pays for on every start: site
(its .pth files and the editable install's import hook) and the wrapper pip writes (which imports
re). The relay needs nothing outside the standard library and this package."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from inspector.relay.main import main  # only now is the package on the path

if __name__ == "__main__":
    # `relay` is the word uninstall finds its handlers by, as in `hook-inspector relay ...`
    arguments = sys.argv[2:] if sys.argv[1:2] == ["relay"] else sys.argv[1:]
    sys.exit(main(arguments))
