//! The bench set: the fixed positions `tusk bench` searches to a fixed depth, whose total
//! node count is the search's signature (it changes only when the search changes), and which
//! the search's tests use where a node count must stand for more than one position.

use tusk_engine::notation::board::STANDARD_OPENING;

/// Default bench depth in steps.
pub const DEFAULT_DEPTH: u32 = 7;

/// The bench positions, fixed forever: openings, middle games, goal races, endgames, each as
/// (name, board in AEI `setposition` form), the side to move first.
pub const POSITIONS: &[(&str, &str)] = &[
    ("opening", STANDARD_OPENING),
    (
        "opening, other setup",
        "g [rrrrrrrrhdcmecdh                                HDCEMCDHRRRRRRRR]",
    ),
    (
        "published middle game",
        "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
    ),
    (
        "rules diagram, silver to move",
        "s [       rrRc  dr Dd H       e      r  r   DrER R   hr h    CCRRRR]",
    ),
    (
        "middle game A",
        "g [   h r rdhrcr c  m  e  dr     r  rC R    RR     R  HR DD R      ]",
    ),
    (
        "middle game B",
        "s [ m   e      r  r           Rhhrrr      RRRR rrRC H  C H  D M D  ]",
    ),
    (
        "middle game C",
        "s [rrm r crdr r  c        h      h       C R      EM DHCRRRR HRRD  ]",
    ),
    (
        "middle game D",
        "s [  e    c   d  d hm    H r r    rR RrRCr   M D HcrC     R     RRD]",
    ),
    (
        "middle game E",
        "s [ eh c h rrr  r  rr  ddRc    R   D E  r   r R R   D  CR C R    H ]",
    ),
    (
        "thinned game A",
        "s [ c     erd dr       C                           CR  H   E R     ]",
    ),
    (
        "thinned game B",
        "g [     rd  r c m       r rr   R   RDr       RR          DR    E   ]",
    ),
    (
        "thinned game C",
        "g [  h H      r    c  Dr r       hrR      MRR    RR          H     ]",
    ),
    (
        "thinned game D",
        "g [hm       r               R             e       R R MrR     D  C ]",
    ),
    (
        "endgame A",
        "g [      r r          r    e R                       M      D      ]",
    ),
    (
        "endgame B",
        "g [                           r             DHd R       E       d  ]",
    ),
    (
        "endgame C",
        "s [M  r    r    d  C  d                                       D C R]",
    ),
    (
        "endgame D",
        "g [       m                   r      R         E    D              ]",
    ),
    (
        "endgame E",
        "g [      r                 D         R     c     R          R      ]",
    ),
    (
        "goal race A",
        "g [          r  r   h         e       E          H   R  R          ]",
    ),
    (
        "goal race B",
        "s [         r r  r  h          Em    M e         H R  R   R        ]",
    ),
    (
        "elephants and rabbits",
        "g [ r  e  r                  r          R           R     E   R    ]",
    ),
    (
        "lone rabbits",
        "s [   r                                                    R  R    ]",
    ),
];
