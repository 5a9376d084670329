-- leading comment
/* block ; comment */
CREATE TABLE a(x); -- trailing
;;
INSERT INTO a VALUES ('--not a comment');
/* unterminated